import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sandboxBackend } from "../../sandbox/support.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";

const available = await sandboxBackend();

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  ws = undefined;
  server = undefined;
});

/** A PATH with the shell and coreutils but no bubblewrap, as on a machine without it. */
async function pathWithoutBwrap(home: string): Promise<string> {
  const bin = join(home, "bin");
  await mkdir(bin);
  for (const tool of ["bash", "sh", "cat", "ls", "echo", "env"])
    await symlink(`/bin/${tool}`, join(bin, tool));
  return bin;
}

describe("agentry doctor", () => {
  it.skipIf(available.skip !== undefined)(
    `finds the sandbox and prints the main agent's profile ${available.skip ?? ""}`,
    async () => {
      ws = await makeWorkspace({ "a.txt": "a" });
      const result = await runCli(["doctor"], { cwd: ws.dir, env: ws.env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/✓ sandbox +bubblewrap at \//);
      expect(result.stdout).toContain("write:    ");
      expect(result.stdout).toContain(".agentry");
      expect(result.stdout).toContain("network:  none");
      const json = JSON.parse((await runCli(["doctor", "--json"], { cwd: ws.dir, env: ws.env })).stdout);
      expect(json.profile.ceiling).toBe("workspace-write");
      expect(json.checks.map((check: { name: string }) => check.name)).toEqual([
        "node",
        "sandbox",
        "ripgrep",
        "git",
      ]);
    },
  );

  it("says what is missing and how to get it, and exits 1", async () => {
    ws = await makeWorkspace();
    const result = await runCli(["doctor"], {
      cwd: ws.dir,
      env: { ...ws.env, PATH: await pathWithoutBwrap(ws.home) },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ sandbox +bubblewrap \(bwrap\) is not installed/);
    expect(result.stdout).toContain("apt-get install bubblewrap");
  });

  it("with the sandbox turned off, says so", async () => {
    ws = await makeWorkspace();
    const result = await runCli(["doctor"], { cwd: ws.dir, env: { ...ws.env, AGENTRY_SANDBOX: "off" } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/- sandbox +turned off/);
  });
});

describe("a run without an OS sandbox", () => {
  it("says so once on stderr, with how to enable it, and still runs its commands (children too)", async () => {
    ws = await makeWorkspace({ "a.txt": "a" });
    server = await startModelServer([
      { toolCalls: [{ name: "task", args: { description: "look", prompt: "look" } }] },
      { toolCalls: [{ name: "bash", args: { command: "cat a.txt" } }] },
      { text: "child done" },
      { text: "done" },
    ]);
    const result = await runCli(["run", "go"], {
      cwd: ws.dir,
      env: {
        ...ws.env,
        PATH: await pathWithoutBwrap(ws.home),
        ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
        ANTHROPIC_API_KEY: "k",
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.match(/without an OS sandbox/g)).toHaveLength(1);
    expect(result.stderr).toContain("agentry doctor");
    expect(JSON.stringify(server.requests[2]?.body)).toContain('"content":"a"');
  });
});
