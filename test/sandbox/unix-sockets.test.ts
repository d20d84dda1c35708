import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import type { PermissionMode } from "../../src/permissions/modes.ts";
import { DEFAULT_COMMAND_ENV } from "../../src/sandbox/command-env.ts";
import {
  DEFAULT_SANDBOX_SETTINGS,
  type SandboxBackend,
  type SandboxProfile,
} from "../../src/sandbox/policy.ts";
import { policyForAgent } from "../../src/sandbox/policy-for-agent.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import { type SandboxFixture, sandboxBackend, sandboxFixture } from "./support.ts";

// Issue 21: a host service listening on a Unix socket (ssh-agent, D-Bus under /run/user/<uid>,
// /var/run/docker.sock) is out of reach of a sandboxed command, read-only or not: connect(2) works on
// read-only mounts, so the sandbox refuses to make the socket at all.

const found = await sandboxBackend();
const backend = found.backend as SandboxBackend;

/** A host process listening on a Unix socket at `path`; counts the connections it gets. */
async function listen(path: string): Promise<{ server: Server; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.end("host service\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, resolve);
  });
  return { server, connections: () => count };
}

async function run(
  fx: SandboxFixture,
  command: string,
  profile: SandboxProfile,
  mode: PermissionMode,
  allowedHosts: string[] = [],
) {
  const policy = await policyForAgent({
    backend,
    rules: DEFAULT_RULES,
    mode,
    workspace: fx.workspace,
    settings: { ...DEFAULT_SANDBOX_SETTINGS, allowedHosts },
    home: fx.home,
  });
  return nodeOperations.exec(command, {
    cwd: fx.workspace,
    signal: new AbortController().signal,
    timeoutMs: 20_000,
    inheritEnv: DEFAULT_COMMAND_ENV,
    env: { HOME: fx.home },
    sandbox: { policy, profile },
  });
}

/** Connects with Python and with Node, printing what each got. */
const connect = (path: string) =>
  [
    `python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("${path}"); print("python got", s.recv(64))' 2>&1 | tail -1`,
    `node -e 'require("net").connect("${path}").on("data", d => { console.log("node got", String(d)); process.exit(0) }).on("error", e => console.log("node refused", e.code))'`,
    "echo end",
  ].join("; ");

describe.skipIf(found.skip !== undefined)(`Unix sockets of the host ${found.skip ?? ""}`, () => {
  for (const [profile, mode, hosts] of [
    ["read-only", "plan", []],
    ["workspace-write", "accept-edits", []],
    ["workspace-write", "accept-edits", ["example.com"]],
  ] as const) {
    const behind = hosts.length > 0 ? " behind the network bridge (allowed hosts)" : "";
    it(`a ${profile} command${behind} cannot connect to one in the workspace or in /run`, async () => {
      const fx = await sandboxFixture();
      const inWorkspace = join(fx.workspace, "service.sock");
      const inRun = `/run/agentry-test-${randomBytes(4).toString("hex")}.sock`;
      const services = [await listen(inWorkspace), await listen(inRun)];
      try {
        for (const path of [inWorkspace, inRun]) {
          const result = await run(fx, connect(path), profile, mode, [...hosts]);
          expect(result.output, path).toContain("end");
          expect(result.output, path).not.toContain("got");
        }
        expect(services.map((service) => service.connections())).toEqual([0, 0]);
      } finally {
        for (const { server } of services) await new Promise((resolve) => server.close(resolve));
        await rm(inRun, { force: true });
      }
    });
  }

  it("sockets inside the sandbox still work between its own processes (socketpair, pipes)", async () => {
    const fx = await sandboxFixture();
    const result = await run(
      fx,
      `python3 -c 'import socket; a, b = socket.socketpair(); a.send(b"pair"); print("pair got", b.recv(4))'; echo piped | cat`,
      "workspace-write",
      "accept-edits",
    );
    expect(result.output).toContain("pair got b'pair'");
    expect(result.output).toContain("piped");
  });
});
