import { hostname } from "node:os";
import { expect, it } from "vitest";
import { currentOwner, ownerLiveness, parseOwner } from "../../src/tasks/owner.ts";
import { deadPid } from "./support/dead-pid.ts";

it("names this process as <hostname>:<pid>", () => {
  expect(currentOwner()).toBe(`${hostname()}:${process.pid}`);
  expect(parseOwner(currentOwner())).toEqual({ host: hostname(), pid: process.pid });
});

it("parses hosts containing colons and rejects malformed owners", () => {
  expect(parseOwner("fe80::1:42")).toEqual({ host: "fe80::1", pid: 42 });
  for (const bad of ["", "host", ":12", "host:", "host:0", "host:-3", "host:1.5", "host:abc"]) {
    expect(parseOwner(bad), bad).toBeUndefined();
  }
});

it("knows local processes are alive or dead", async () => {
  expect(ownerLiveness(currentOwner())).toBe("alive");
  expect(ownerLiveness(`${hostname()}:${process.ppid}`)).toBe("alive");
  expect(ownerLiveness(`${hostname()}:${await deadPid()}`)).toBe("dead");
});

it("cannot tell for another host or an unparseable owner", () => {
  expect(ownerLiveness(`not-${hostname()}:${process.pid}`)).toBe("unknown");
  expect(ownerLiveness("garbage")).toBe("unknown");
  // pid 0 would address the process group: never passed to kill.
  expect(ownerLiveness(`${hostname()}:0`)).toBe("unknown");
});
