import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { BUBBLEWRAP, describeWith } from "../../support/components.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

// Acceptance of issue 22 (settings and MCP servers of the peers): a project a Claude Code, OpenCode or
// Codex user keeps is read with its meaning — deny rules at once, MCP servers and other endpoints only
// in a trusted folder, models with their source.

const MCP_MAIN = fileURLToPath(new URL("../../support/mcp-server-main.ts", import.meta.url));

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SECRET = "peer-planted-secret-91c4";

describeWith(BUBBLEWRAP, "a deny rule of .claude/settings.json", () => {
  it.each([false, true])(
    "keeps the secret from the read tool, grep and cat (trusted: %s)",
    async (trusted) => {
      const ws = await makeWorkspace({
        ".claude/settings.json": JSON.stringify({ permissions: { deny: ["Read(./secrets/**)"] } }),
        "secrets/key.txt": `${SECRET}\n`,
        "src/a.ts": "export const a = 1;\n",
      });
      if (trusted) await ws.trust();
      server = await startModelServer([
        {
          toolCalls: [
            { name: "read", args: { path: "secrets/key.txt" } },
            { name: "grep", args: { pattern: "planted" } },
            { name: "bash", args: { command: "cat secrets/key.txt" } },
          ],
        },
        { text: "done" },
      ]);
      const result = await runCli(["run", "find the key"], {
        cwd: ws.dir,
        env: { ...ws.env, ...providerEnv(server, "anthropic") },
      });
      expect(result.code, result.stderr).toBe(0);
      const seen = JSON.stringify(server.requests[1]?.body);
      expect(seen).toContain("denied by rule read:'secrets/**':deny");
      expect(seen).not.toContain(SECRET);
      expect(JSON.stringify(await ws.transcripts())).not.toContain(SECRET);
    },
  );
});

/** The project's test MCP server, which writes `marker` when it starts. */
const testServer = (ws: TestWorkspace, marker: string) => ({
  command: process.execPath,
  args: [MCP_MAIN, "--pid-file", join(ws.dir, marker)],
});

describe("the peers' MCP servers", () => {
  const forms: Record<string, (ws: TestWorkspace) => [string, string]> = {
    ".mcp.json": (ws) => [".mcp.json", JSON.stringify({ mcpServers: { peer: testServer(ws, "started") } })],
    "opencode.json": (ws) => {
      const { command, args } = testServer(ws, "started");
      return [
        "opencode.json",
        JSON.stringify({ mcp: { peer: { type: "local", command: [command, ...args] } } }),
      ];
    },
    ".codex/config.toml": (ws) => {
      const { command, args } = testServer(ws, "started");
      return [
        ".codex/config.toml",
        `[mcp_servers.peer]\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\n`,
      ];
    },
  };

  it.each(Object.keys(forms))("%s: offered after trust, not before", async (form) => {
    const ws = await makeWorkspace();
    const [path, text] = forms[form]?.(ws) ?? ["", ""];
    await ws.write(path, text);
    server = await startModelServer({ text: "ok" });
    const env = { ...ws.env, ...providerEnv(server, "anthropic") };
    const before = await runCli(["run", "hi"], { cwd: ws.dir, env });
    expect(before.code, before.stderr).toBe(0);
    expect(existsSync(join(ws.dir, "started"))).toBe(false);
    expect(before.stderr).toContain(`${path} (MCP server "peer")`);
    const listed = await runCli(["mcp", "list"], { cwd: ws.dir, env: ws.env });
    expect(listed.stdout).toContain(`peer (${path}): not started, withheld until you trust this folder`);

    await ws.trust();
    const after = await runCli(["run", "hi"], { cwd: ws.dir, env });
    expect(after.code, after.stderr).toBe(0);
    expect(existsSync(join(ws.dir, "started"))).toBe(true);
    const tools = ((server.requests.at(-1)?.body.tools ?? []) as Array<{ name: string }>).map(
      (tool) => tool.name,
    );
    expect(tools).toContain("mcp__peer__echo");
    const trustedList = await runCli(["mcp", "list"], { cwd: ws.dir, env: ws.env });
    expect(trustedList.stdout).toMatch(
      new RegExp(`peer +stdio +connected +\\d+ +${path.replace(".", "\\.")}`),
    );
  });

  it("--mcp-config reads each peer's form", async () => {
    const ws = await makeWorkspace();
    for (const form of Object.keys(forms)) {
      const [path, text] = forms[form]?.(ws) ?? ["", ""];
      const file = `flag-${path.replaceAll("/", "-")}`;
      await ws.write(file, text);
      const listed = await runCli(["mcp", "list", "--mcp-config", file, "--json"], {
        cwd: ws.dir,
        env: ws.env,
      });
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({ name: "peer", status: "connected", source: "--mcp-config" }),
      ]);
    }
  });
});

describe("the peers' models", () => {
  const bothKeys = (model: ModelServer) => ({
    ...providerEnv(model, "anthropic"),
    ...providerEnv(model, "openai"),
  });

  it("ANTHROPIC_MODEL is used, and agentry config names it as the source", async () => {
    const ws = await makeWorkspace();
    server = await startModelServer({ text: "ok" });
    const env = { ...ws.env, ...providerEnv(server, "anthropic"), ANTHROPIC_MODEL: "claude-from-env-1" };
    expect((await runCli(["run", "hi"], { cwd: ws.dir, env })).code).toBe(0);
    expect(server.requests[0]?.body.model).toBe("claude-from-env-1");
    const config = await runCli(["config"], { cwd: ws.dir, env });
    expect(config.stdout).toMatch(/model +anthropic:claude-from-env-1 +ANTHROPIC_MODEL/);
  });

  it("a project's opencode.json model on another provider waits for trust; then it is used, with its source", async () => {
    const ws = await makeWorkspace({
      "opencode.json": JSON.stringify({ model: "openai/gpt-from-opencode" }),
    });
    server = await startModelServer({ text: "ok" });
    const env = { ...ws.env, ...bothKeys(server) };
    const untrusted = await runCli(["run", "hi"], { cwd: ws.dir, env });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(server.requests[0]?.protocol).toBe("anthropic");
    expect(untrusted.stderr).toContain("opencode.json (model openai/gpt-from-opencode)");
    await ws.trust();
    expect((await runCli(["run", "hi"], { cwd: ws.dir, env })).code).toBe(0);
    expect(server.requests[1]).toMatchObject({ protocol: "openai", body: { model: "gpt-from-opencode" } });
    const config = await runCli(["config"], { cwd: ws.dir, env });
    expect(config.stdout).toMatch(/model +openai\/gpt-from-opencode +opencode\.json/);
  });

  it("the user's own peers' models apply as the user's: ~/.codex/config.toml and ~/.claude/settings.json", async () => {
    const ws = await makeWorkspace();
    await ws.userFile(".codex/config.toml", 'model = "gpt-from-codex"\n');
    server = await startModelServer({ text: "ok" });
    const env = { ...ws.env, ...bothKeys(server) };
    expect((await runCli(["run", "hi"], { cwd: ws.dir, env })).code).toBe(0);
    expect(server.requests[0]).toMatchObject({ protocol: "openai", body: { model: "gpt-from-codex" } });
    // Claude Code's settings are read above Codex's at the user's level.
    await ws.userFile(".claude/settings.json", JSON.stringify({ model: "claude-from-settings-2" }));
    expect((await runCli(["run", "hi"], { cwd: ws.dir, env })).code).toBe(0);
    expect(server.requests[1]).toMatchObject({
      protocol: "anthropic",
      body: { model: "claude-from-settings-2" },
    });
  });
});

it("agentry config, doctor and agents check say what was found in each peer's file", async () => {
  const ws = await makeWorkspace({
    ".claude/settings.json": JSON.stringify({
      permissions: {
        deny: ["Read(./secrets/**)", "Bash(rm:*)", "WebSearch"],
        allow: ["Bash(npm test:*)", "Edit"],
      },
      env: { FOR_COMMANDS: "1" },
    }),
    ".mcp.json": JSON.stringify({
      mcpServers: { db: { command: "db-server" }, old: { type: "sse", url: "http://x" } },
    }),
  });
  const config = await runCli(["config"], { cwd: ws.dir, env: ws.env });
  expect(config.code, config.stderr).toBe(0);
  expect(config.stdout).toContain(
    ".claude/settings.json: 3 deny rules applied; 2 allow rules withheld until you trust this folder; 1 variable for commands",
  );
  expect(config.stdout).toContain(
    '.mcp.json: 1 MCP server withheld until you trust this folder (agentry trust); not used: server "old" uses type "sse" (deprecated); use type "http" with its URL',
  );
  const doctor = await runCli(["doctor"], { cwd: ws.dir, env: ws.env });
  expect(doctor.stdout).toContain(".claude/settings.json: 3 deny rules applied");
  const check = await runCli(["agents", "check"], { cwd: ws.dir, env: ws.env });
  expect(check.stdout).toContain(".mcp.json: 1 MCP server withheld");
  const run = await runCli(["mcp", "list"], { cwd: ws.dir, env: ws.env });
  expect(run.stderr).toContain('warning: .mcp.json: server "old" uses type "sse"');
});
