import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import type { PermissionMode } from "../../src/permissions/modes.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { DEFAULT_COMMAND_ENV } from "../../src/sandbox/command-env.ts";
import {
  DEFAULT_SANDBOX_SETTINGS,
  type SandboxBackend,
  type SandboxProfile,
  type SandboxSettings,
} from "../../src/sandbox/policy.ts";
import { policyForAgent } from "../../src/sandbox/policy-for-agent.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import { processesRunning, until } from "../support/processes.ts";
import { type SandboxFixture, SECRETS, sandboxBackend, sandboxFixture } from "./support.ts";

const found = await sandboxBackend();
const backend = found.backend as SandboxBackend;

interface RunOptions {
  profile?: SandboxProfile;
  rules?: Ruleset;
  mode?: PermissionMode;
  settings?: Partial<SandboxSettings>;
  env?: Record<string, string>;
}

/** Runs `command` in the fixture's workspace inside the sandbox of an agent with these rules. */
async function run(fx: SandboxFixture, command: string, options: RunOptions = {}) {
  const policy = await policyForAgent({
    backend,
    rules: options.rules ?? DEFAULT_RULES,
    mode: options.mode ?? "accept-edits",
    workspace: fx.workspace,
    settings: { ...DEFAULT_SANDBOX_SETTINGS, ...options.settings },
    home: fx.home,
  });
  return nodeOperations.exec(command, {
    cwd: fx.workspace,
    signal: new AbortController().signal,
    timeoutMs: 20_000,
    inheritEnv: DEFAULT_COMMAND_ENV,
    env: { HOME: fx.home, ...options.env },
    sandbox: { policy, profile: options.profile ?? "workspace-write" },
  });
}

describe.skipIf(found.skip !== undefined)(`commands in the OS sandbox ${found.skip ?? ""}`, () => {
  it("write the workspace, and nothing outside it", async () => {
    const fx = await sandboxFixture();
    const result = await run(
      fx,
      [
        "echo new > src/b.ts && echo wrote-inside",
        `echo pwned > ${fx.outside}/target.txt`,
        `echo pwned > ../outside/target.txt`,
        `touch ${fx.home}/pwned`,
        `python3 -c 'open("${fx.outside}/py.txt","w").write("x")'`,
        `node -e 'require("fs").writeFileSync("${fx.outside}/node.txt","x")'`,
        "echo tmp > /tmp/t && cat /tmp/t",
      ].join("; "),
    );
    expect(result.output).toContain("wrote-inside");
    expect(result.output).toContain("tmp");
    expect(await readFile(join(fx.workspace, "src", "b.ts"), "utf8")).toBe("new\n");
    expect(await readFile(join(fx.outside, "target.txt"), "utf8")).toBe("untouched");
    for (const name of ["py.txt", "node.txt"]) expect(existsSync(join(fx.outside, name))).toBe(false);
    expect(existsSync(join(fx.home, "pwned"))).toBe(false);
  });

  it("a read-only profile writes nothing but /tmp", async () => {
    const fx = await sandboxFixture();
    const result = await run(fx, "echo x > src/a.ts; rm -f src/a.ts; echo tmp > /tmp/t && cat /tmp/t", {
      profile: "read-only",
    });
    expect(result.output).toMatch(/Read-only file system/);
    expect(result.output).toContain("tmp");
    expect(await readFile(join(fx.workspace, "src", "a.ts"), "utf8")).toBe("export const a = 1;\n");
  });

  it("git commits, but git's config and hooks stay read-only (no fsmonitor, no hook)", async () => {
    const fx = await sandboxFixture();
    const result = await run(
      fx,
      [
        "git config core.fsmonitor 'touch /tmp/x'",
        "echo '[core] fsmonitor = touch pwned' >> .git/config",
        "printf '#!/bin/sh\\ntouch pwned\\n' > .git/hooks/pre-commit",
        "echo b > b.txt && git add b.txt && git -c user.email=t@t -c user.name=t commit -qm two && echo committed",
      ].join("; "),
    );
    expect(result.output).toContain("committed");
    expect(await readFile(join(fx.workspace, ".git", "config"), "utf8")).not.toContain("fsmonitor");
    expect(existsSync(join(fx.workspace, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(execFileSync("git", ["log", "--oneline"], { cwd: fx.workspace, encoding: "utf8" })).toContain(
      "two",
    );
  });

  it("protected paths it creates are removed afterwards and named", async () => {
    const fx = await sandboxFixture();
    const result = await run(
      fx,
      "mkdir -p .claude/agents && echo evil > .claude/agents/x.md; echo '{}' > .mcp.json; echo '{}' > agentry.json; echo ok",
    );
    expect(result.output).toContain("ok");
    expect(result.removedPaths?.sort()).toEqual([".claude", ".mcp.json", "agentry.json"]);
    for (const name of [".claude", ".mcp.json", "agentry.json"])
      expect(existsSync(join(fx.workspace, name))).toBe(false);
  });

  it("bypass lifts the protection", async () => {
    const fx = await sandboxFixture();
    await run(fx, "git config core.fsmonitor false", { mode: "bypass" });
    expect(await readFile(join(fx.workspace, ".git", "config"), "utf8")).toContain("fsmonitor");
  });

  it("cannot read .env, keys in the home folder, or /etc/shadow, even through a symlink", async () => {
    const fx = await sandboxFixture();
    await writeFile(join(fx.workspace, "notes.md"), "plain");
    execFileSync("ln", ["-s", join(fx.home, ".ssh", "id_ed25519"), join(fx.workspace, "key-link")]);
    const result = await run(
      fx,
      `cat .env; cat key-link; cat ${fx.home}/.ssh/id_ed25519; cat ~/.aws/credentials; head -c 20 /etc/shadow; grep -r secret . ; cat notes.md`,
    );
    for (const secret of Object.values(SECRETS)) expect(result.output).not.toContain(secret.slice(-8));
    expect(result.output).not.toMatch(/root:[^:]*:/);
    expect(result.output).toContain("plain");
  });

  it("reaches no network, not even the host's loopback", async () => {
    const fx = await sandboxFixture();
    const result = await run(
      fx,
      `node -e 'fetch("http://127.0.0.2:${port}/leak").then(r=>r.text()).then(t=>console.log("got",t),e=>console.log("refused",e.cause?.code))'`,
    );
    expect(result.output).toContain("refused");
    expect(hits).toBe(0);
  });

  it("reaches the hosts the user's config allows, through agentry's proxy, and no others", async () => {
    const fx = await sandboxFixture();
    const fetchCommand = (host: string) =>
      `node -e 'fetch("http://${host}:${port}/allowed").then(r=>r.text()).then(t=>console.log("got",t),e=>console.log("refused",e.cause?.code ?? e.message))'`;
    const allowed = await run(fx, fetchCommand("127.0.0.2"), { settings: { allowedHosts: ["127.0.0.2"] } });
    expect(allowed.output).toContain("got leaked");
    expect(hits).toBe(1);
    const curl = await run(fx, `curl -sS http://127.0.0.3:${port}/other`, {
      settings: { allowedHosts: ["127.0.0.2"] },
    });
    expect(curl.output).toMatch(/127\.0\.0\.3/);
    expect(curl.output).toMatch(/allowedHosts/);
    expect(hits).toBe(1);
  });

  it("keeps no capability of root: no clock, mounts, host name, users or namespaces", async () => {
    const fx = await sandboxFixture();
    const result = await run(
      fx,
      "grep CapEff /proc/self/status; date -s '2001-01-01' >/dev/null 2>&1 || echo no-clock; mount -t tmpfs x /mnt 2>/dev/null || echo no-mount; hostname sandboxed 2>/dev/null || echo no-hostname; useradd evil 2>/dev/null || echo no-useradd; unshare -U true 2>/dev/null || echo no-userns",
    );
    expect(result.output).toContain("CapEff:\t0000000000000000");
    for (const word of ["no-clock", "no-mount", "no-hostname", "no-useradd", "no-userns"]) {
      expect(result.output).toContain(word);
    }
  });

  it("sees none of agentry's processes, so not their environment", async () => {
    const fx = await sandboxFixture();
    const result = await run(
      fx,
      `cat /proc/${process.pid}/environ 2>&1 || echo hidden; ls /proc | grep -c '^[0-9]'`,
    );
    expect(result.output).toContain("hidden");
    expect(Number(result.output.trim().split("\n").at(-1))).toBeLessThan(10);
  });

  it("inherits only allowlisted variables", async () => {
    const fx = await sandboxFixture();
    process.env.AGENTRY_TEST_SECRET_KEY = "env-secret-91ab";
    process.env.LC_API_TOKEN = "lc-secret-44cd";
    try {
      const result = await run(fx, "env");
      expect(result.output).toContain("PATH=");
      expect(result.output).not.toContain("env-secret-91ab");
      expect(result.output).not.toContain("lc-secret-44cd");
    } finally {
      delete process.env.AGENTRY_TEST_SECRET_KEY;
      delete process.env.LC_API_TOKEN;
    }
  });

  it("ends background processes when the command returns", async () => {
    const fx = await sandboxFixture();
    const marker = `${300 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    const result = await run(fx, `sleep ${marker} & echo started`);
    expect(result.output).toContain("started");
    expect(await until(() => processesRunning(`sleep ${marker}`).length === 0, 1000)).toBe(true);
  });
});

let server: Server;
let port = 0;
let hits = 0;
beforeAll(async () => {
  server = createServer((_request, response) => {
    hits++;
    response.end("leaked");
  });
  // 127.0.0.2: a loopback address the proxy environment does not exempt (NO_PROXY names 127.0.0.1).
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
