import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { hostname } from "node:os";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  currentProcess,
  formatIdentity,
  parseIdentity,
  processLiveness,
} from "../../src/state/process-identity.ts";
import { BUBBLEWRAP, describeWith } from "../support/components.ts";

/** The same machine and hostname, another pid namespace; its processes die with the bwrap we start. */
const BWRAP_NEW_PID_NAMESPACE = [
  "bwrap",
  "--dev-bind",
  "/",
  "/",
  "--unshare-pid",
  "--die-with-parent",
  "--proc",
  "/proc",
];
const PRINT = fileURLToPath(new URL("./support/print-identity.ts", import.meta.url));
const linux = process.platform === "linux";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
});

/** Starts `print-identity.ts` under `wrapper` (e.g. bwrap) and returns it with the identity it printed. */
async function identified(wrapper: string[] = []): Promise<{ child: ChildProcess; identity: string }> {
  const argv = [...wrapper, process.execPath, PRINT];
  const child = spawn(argv[0] as string, argv.slice(1), { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`print-identity exited with ${code}`)));
  });
  return { child, identity: line.trim() };
}

it("formats this process as host:pid plus, on Linux, boot, pid namespace and start time", () => {
  const text = formatIdentity(currentProcess());
  expect(text.startsWith(`${hostname()}:${process.pid}`)).toBe(true);
  if (linux) expect(text).toMatch(/^[^/]+:\d+\/b=[0-9a-f]{8},ns=\d+,t=\d+$/);
  expect(parseIdentity(text)).toEqual(currentProcess());
  expect(parseIdentity("fe80::1:42")).toEqual({ host: "fe80::1", pid: 42 });
  for (const bad of ["", "host", ":12", "host:", "host:0", "host:-3", "host:1.5", "host:abc"]) {
    expect(parseIdentity(bad), bad).toBeUndefined();
  }
});

it("tells a live process from one that exited", async () => {
  const { child, identity } = await identified();
  const parsed = parseIdentity(identity)!;
  expect(processLiveness(parsed)).toBe("alive");
  child.kill("SIGKILL");
  await once(child, "exit");
  expect(processLiveness(parsed)).toBe("dead");
});

it("counts a stopped process (Ctrl-Z, SIGSTOP) as alive, however long it was silent", async () => {
  const { child, identity } = await identified();
  child.kill("SIGSTOP");
  try {
    expect(processLiveness(parseIdentity(identity)!)).toBe("alive");
  } finally {
    child.kill("SIGCONT");
  }
});

describe.runIf(linux)("on Linux", () => {
  it("a reused pid is not the owner: same pid, another start time, is dead", () => {
    const me = currentProcess();
    expect(processLiveness({ ...me, startTime: String(Number(me.startTime) + 1) })).toBe("dead");
  });

  it("an older agentry's bare host:pid may come from another namespace: unknown, never dead", () => {
    expect(processLiveness({ host: hostname(), pid: 999_999 })).toBe("unknown");
  });

  it("another host or boot is unknown", () => {
    const me = currentProcess();
    expect(processLiveness({ ...me, host: `not-${me.host}` })).toBe("unknown");
    expect(processLiveness({ ...me, boot: "00000000" })).toBe("unknown");
  });

  describeWith(BUBBLEWRAP, "with another pid namespace", () => {
    it("a process in another pid namespace with the same hostname is unknown, never dead", async () => {
      const { identity } = await identified(BWRAP_NEW_PID_NAMESPACE);
      const parsed = parseIdentity(identity)!;
      expect(parsed.host).toBe(hostname());
      expect(parsed.pidNamespace).not.toBe(currentProcess().pidNamespace);
      // Its pid means nothing here: as seen from this namespace it is absent or another process.
      expect(processLiveness(parsed)).toBe("unknown");
    });
  });
});
