import { join } from "node:path";
import { expect, it } from "vitest";
import { claudeLayer } from "../../../../src/cli/config/peers/claude-layer.ts";
import type { ClaudeSettings } from "../../../../src/cli/config/peers/claude-settings.ts";
import { readCodexLayer } from "../../../../src/cli/config/peers/codex-layer.ts";
import { readOpenCodeLayer } from "../../../../src/cli/config/peers/opencode-layer.ts";
import { fromClaudeMcp, fromCodexMcp, fromOpenCodeMcp } from "../../../../src/cli/config/peers/peer-mcp.ts";
import { claudeModel, codexModel, openCodeModel } from "../../../../src/cli/config/peers/peer-models.ts";
import { readPeerLayers } from "../../../../src/cli/config/peers/read-peers.ts";
import { evaluate } from "../../../../src/permissions/evaluate.ts";
import { rulesetFromConfig } from "../../../../src/permissions/ruleset-from-config.ts";
import { makeWorkspace } from "../../support/cli-process.ts";

const claude = (settings: ClaudeSettings, scope: "user" | "project" = "project") =>
  claudeLayer(
    { label: ".claude/settings.json", path: "/w/.claude/settings.json", scope, settings },
    "/w",
    "/home/u",
  );

it("Claude Code's permissions keep their meaning: deny wins, additionalDirectories allow leaving the workspace there", () => {
  const layer = claude({
    permissions: {
      allow: ["Bash(npm test:*)", "Read"],
      deny: ["Read(./secrets/**)", "Bash(git push:*)"],
      additionalDirectories: ["../shared", "~/notes"],
      defaultMode: "acceptEdits",
    },
  });
  const rules = rulesetFromConfig(layer.config.permission);
  expect(evaluate(rules, "read", "secrets/a.txt")).toBe("deny");
  expect(evaluate(rules, "read", "src/a.ts")).toBe("allow");
  expect(evaluate(rules, "bash", "npm test -- --watch")).toBe("allow");
  expect(evaluate(rules, "bash", "git push origin")).toBe("deny");
  expect(evaluate(rules, "external_directory", "/shared/x.md")).toBe("allow");
  expect(evaluate(rules, "external_directory", "/home/u/notes/today.md")).toBe("allow");
  expect(evaluate(rules, "external_directory", "/etc/passwd")).toBe("ask");
  expect(layer.config.permissionMode).toBe("accept-edits");
});

it("a Claude deny or ask agentry cannot read fails the file; an allow it cannot read, or a tool it lacks, is a note", () => {
  expect(() => claude({ permissions: { deny: ["Bash(rm"] } })).toThrow(/permissions\.deny: cannot read rule/);
  expect(() => claude({ permissions: { ask: ["(x)"] } })).toThrow(/permissions\.ask/);
  const layer = claude({ permissions: { allow: ["Bash(rm"], deny: ["TodoWrite"] }, model: "opusplan" });
  expect(layer.notes).toEqual([
    expect.stringMatching(/^permissions\.allow: cannot read rule .*: left out$/),
    expect.stringMatching(/^permissions\.deny: unknown tool "TodoWrite".*agentry has no such tool$/),
    'model "opusplan" is Claude Code\'s own choice',
  ]);
  expect(layer.config.permission).toBeUndefined();
});

it("models in each peer's spelling", () => {
  expect(claudeModel("opus")).toBe("opus");
  expect(claudeModel("claude-sonnet-4-5")).toBe("anthropic:claude-sonnet-4-5");
  expect(claudeModel("anthropic:claude-x")).toBe("anthropic:claude-x");
  expect(openCodeModel("anthropic/claude-sonnet-4-5")).toBe("anthropic/claude-sonnet-4-5");
  expect(openCodeModel("gpt-5")).toEqual({ ignored: expect.stringContaining("names no provider") });
  expect(codexModel("gpt-5-codex", undefined)).toBe("openai:gpt-5-codex");
  expect(codexModel("qwen3", "oss")).toBe("ollama:qwen3");
  expect(codexModel("x", "azure")).toEqual({ ignored: expect.stringContaining('model_provider "azure"') });
});

it("MCP servers in each peer's form become agentry's, and what cannot be taken is a note", () => {
  expect(
    fromClaudeMcp({
      mcpServers: { a: { command: "x", args: ["1"] }, b: { type: "http", url: "https://b" } },
    }),
  ).toEqual({
    servers: { a: { command: "x", args: ["1"] }, b: { type: "http", url: "https://b" } },
    notes: [],
  });
  expect(fromClaudeMcp({ mcpServers: { c: { type: "sse", url: "http://c" } } }).notes).toEqual([
    'server "c" uses type "sse" (deprecated); use type "http" with its URL',
  ]);
  expect(
    fromOpenCodeMcp({
      a: { type: "local", command: ["npx", "-y", "srv"], environment: { K: "v" } },
      b: { type: "remote", url: "https://b", headers: { h: "1" } },
      off: { type: "local", command: ["x"], enabled: false },
      bad: { type: "local", command: "npx srv" },
    }),
  ).toEqual({
    servers: {
      a: { command: "npx", args: ["-y", "srv"], env: { K: "v" } },
      b: { type: "http", url: "https://b", headers: { h: "1" } },
    },
    notes: ['server "bad": command must be a list of strings'],
  });
  expect(
    fromCodexMcp({ a: { command: "x", args: ["1"], env: { K: "v" } }, b: { url: "https://b" } }),
  ).toEqual({
    servers: { a: { command: "x", args: ["1"], env: { K: "v" } }, b: { type: "http", url: "https://b" } },
    notes: [],
  });
  expect(fromCodexMcp({ "bad name": { command: "x" } }).notes).toEqual([
    'server "bad name": the name may hold only letters, digits and single "_" or "-"',
  ]);
});

it("OpenCode's and Codex's files are read with their meaning; a broken one names itself", async () => {
  const ws = await makeWorkspace({
    "opencode.jsonc":
      '// comments are fine\n{ "model": "openai/gpt-5", "permission": { "bash": { "*": "ask", "git status": "allow" } }, "instructions": ["docs/*.md"], }',
    ".codex/config.toml": 'model = "gpt-5-codex"\nsandbox_mode = "read-only"\napproval_policy = "never"\n',
  });
  const opencode = await readOpenCodeLayer(join(ws.dir, "opencode.jsonc"), "opencode.jsonc", "project");
  expect(opencode?.config).toEqual({
    model: "openai/gpt-5",
    permission: { bash: { "*": "ask", "git status": "allow" } },
    instructions: ["docs/*.md"],
  });
  const codex = await readCodexLayer(join(ws.dir, ".codex/config.toml"), ".codex/config.toml", "project");
  expect(codex?.config).toEqual({ model: "openai:gpt-5-codex", permissionMode: "plan" });
  await ws.write(".codex/config.toml", "model = \n");
  await expect(
    readCodexLayer(join(ws.dir, ".codex/config.toml"), ".codex/config.toml", "project"),
  ).rejects.toThrow(/^\.codex\/config\.toml: invalid TOML/);
  expect(await readOpenCodeLayer(join(ws.dir, "none.json"), "none.json", "project")).toBeUndefined();
});

it("an opencode.json permission naming MCP tools the OpenCode way applies to agentry's names too", async () => {
  const ws = await makeWorkspace({
    "opencode.json": JSON.stringify({ permission: { "*": "ask", "github_*": "deny", bash: "allow" } }),
  });
  const opencode = await readOpenCodeLayer(join(ws.dir, "opencode.json"), "opencode.json", "project");
  expect(opencode?.config.permission).toEqual({
    "*": "ask",
    "github_*": "deny",
    "mcp__github_*": "deny",
    bash: "allow",
  });
});

it("an opencode.json permission spelled the V2 way (`permissions`) is read; both spellings at once are refused", async () => {
  const ws = await makeWorkspace({ "opencode.json": JSON.stringify({ permissions: { bash: "deny" } }) });
  const read = () => readOpenCodeLayer(join(ws.dir, "opencode.json"), "opencode.json", "project");
  expect((await read())?.config.permission).toEqual({ bash: "deny" });
  await ws.write(
    "opencode.json",
    JSON.stringify({ permission: { bash: "allow" }, permissions: { bash: "deny" } }),
  );
  await expect(read()).rejects.toThrow(/^opencode\.json: sets both permission and permissions/);
});

it("the peers' files come lowest first: the user's, then the project's, Claude's local settings last", async () => {
  const ws = await makeWorkspace({
    ".claude/settings.json": JSON.stringify({ model: "sonnet" }),
    ".claude/settings.local.json": JSON.stringify({ model: "opus" }),
    ".mcp.json": JSON.stringify({ mcpServers: {} }),
    "opencode.json": JSON.stringify({ model: "anthropic/x" }),
  });
  await ws.userFile(".codex/config.toml", 'model = "gpt-5"\n');
  await ws.userFile(".claude/settings.json", JSON.stringify({ env: { A: "1" } }));
  const layers = await readPeerLayers(ws.dir, { HOME: ws.home });
  expect(layers.map((layer) => `${layer.scope} ${layer.label.replace(ws.home, "~")}`)).toEqual([
    "user ~/.codex/config.toml",
    "user ~/.claude/settings.json",
    "project opencode.json",
    "project .mcp.json",
    "project .claude/settings.json",
    "project .claude/settings.local.json",
  ]);
});
