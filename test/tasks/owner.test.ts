import { hostname } from "node:os";
import { expect, it } from "vitest";
import { currentProcess, formatIdentity, localProcess } from "../../src/state/process-identity.ts";
import { currentOwner, ownerLiveness, parseOwner } from "../../src/tasks/owner.ts";
import { deadPid } from "./support/dead-pid.ts";

/** Another process of this machine and namespace, as its owner string would name it. */
const local = (pid: number) => formatIdentity(localProcess(pid));

it("names this process as <hostname>:<pid>, plus what pins it down on Linux", () => {
  expect(currentOwner().startsWith(`${hostname()}:${process.pid}`)).toBe(true);
  expect(parseOwner(currentOwner())).toEqual(currentProcess());
});

it("parses hosts containing colons and rejects malformed owners", () => {
  expect(parseOwner("fe80::1:42")).toEqual({ host: "fe80::1", pid: 42 });
  for (const bad of ["", "host", ":12", "host:", "host:0", "host:-3", "host:1.5", "host:abc"]) {
    expect(parseOwner(bad), bad).toBeUndefined();
  }
});

it("knows local processes are alive or dead", async () => {
  expect(ownerLiveness(currentOwner())).toBe("alive");
  expect(ownerLiveness(local(process.ppid))).toBe("alive");
  expect(ownerLiveness(local(await deadPid()))).toBe("dead");
});

it("cannot tell for another host or an unparseable owner", () => {
  expect(ownerLiveness(`not-${hostname()}:${process.pid}`)).toBe("unknown");
  expect(ownerLiveness("garbage")).toBe("unknown");
  // pid 0 would address the process group: never passed to kill.
  expect(ownerLiveness(`${hostname()}:0`)).toBe("unknown");
});
