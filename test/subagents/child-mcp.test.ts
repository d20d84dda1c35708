import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { testServerConfig } from "../support/mcp-server-process.ts";
import { isRunning, until } from "../support/processes.ts";
import { registryWith, rootTree, runTree, tempWorkspace, toolResultsIn } from "./support/subagent-harness.ts";

const NOTES_PROMPT = "You keep notes.";

/** The root delegates to `notes`; the child calls `tool` once, then reports what it got. */
function script(tool: string) {
  return (request: ModelRequest): ScriptedReply => {
    const results = toolResultsIn(request.messages);
    if (request.system.includes(NOTES_PROMPT))
      return results.length === 0
        ? { toolCalls: [{ name: tool, args: { text: "from the child" } }] }
        : { text: `child saw: ${results[0]?.content}` };
    return results.length === 0
      ? {
          toolCalls: [{ name: "task", args: { description: "Notes", prompt: "go", subagent_type: "notes" } }],
        }
      : { text: "done" };
  };
}

test("a definition's inline MCP server runs for the child alone, in its activation, and is stopped after", async () => {
  const ws = await tempWorkspace();
  const pidFile = join(ws, "mcp.pid");
  const notes = {
    name: "notes",
    description: "Keeps notes.",
    prompt: NOTES_PROMPT,
    tools: ["read"],
    mcpServers: [{ name: "own", config: { ...testServerConfig("--pid-file", pidFile) } }],
  };
  const model = scriptedModel(script("mcp__own__echo"));
  const { config } = rootTree({ workspace: ws, model, registry: registryWith(notes) });

  const run = await runTree(config, "ROOT");

  expect(run.outcome).toMatchObject({ status: "completed", text: "done" });
  const [result] = toolResultsIn(run.session.messages);
  expect(result?.isError).toBe(false);
  expect(result?.content).toContain("child saw: echo: from the child");
  const child = model.requests.find((request) => request.system.includes(NOTES_PROMPT));
  const names = child?.tools.map((tool) => tool.name) ?? [];
  expect(names.slice(0, 2)).toEqual(["read", "mcp__own__echo"]);
  expect(names.slice(1).every((name) => name.startsWith("mcp__own__"))).toBe(true);
  // The root never sees the child's server.
  expect(model.requests[0]?.tools.some((tool) => tool.name.startsWith("mcp__"))).toBe(false);
  const pid = Number(readFileSync(pidFile, "utf8"));
  expect(await until(() => !isRunning(pid), 3_000)).toBe(true);
});

test("a child's inline server that fails to start is a warning; the child runs without its tools", async () => {
  const ws = await tempWorkspace();
  const warnings: string[] = [];
  const notes = {
    name: "notes",
    description: "Keeps notes.",
    prompt: NOTES_PROMPT,
    tools: ["read"],
    mcpServers: [{ name: "broken", config: { ...testServerConfig("--crash-on-start") } }],
  };
  const model = scriptedModel(script("read"));
  const tree = rootTree({
    workspace: ws,
    model,
    registry: registryWith(notes),
    onWarning: (message) => warnings.push(message),
  });

  const run = await runTree(tree.config, "ROOT");

  expect(run.outcome.status).toBe("completed");
  expect(warnings.join("\n")).toMatch(
    /subagent main\/notes-1: MCP server "broken" is not available: .*database is locked/s,
  );
  const child = model.requests.find((request) => request.system.includes(NOTES_PROMPT));
  expect(child?.tools.map((tool) => tool.name)).toEqual(["read"]);
});

test("a definition that names an MCP server the session does not run gets a warning, and runs without it", async () => {
  const ws = await tempWorkspace();
  const warnings: string[] = [];
  const notes = {
    name: "notes",
    description: "Keeps notes.",
    prompt: NOTES_PROMPT,
    tools: ["read"],
    mcpServers: [{ name: "github" }],
  };
  const model = scriptedModel(script("read"));
  const tree = rootTree({
    workspace: ws,
    model,
    registry: registryWith(notes),
    onWarning: (message) => warnings.push(message),
  });

  const run = await runTree(tree.config, "ROOT");

  expect(run.outcome.status).toBe("completed");
  expect(warnings).toEqual([
    expect.stringMatching(
      /^agent "notes" names MCP server "github" in mcpServers, but no such server runs in this session, so main\/notes-1 has none of its tools/,
    ),
  ]);
});

test("a child's disallowedTools refuse its own inline servers' tools too, by name and by glob", async () => {
  const ws = await tempWorkspace();
  const notes = {
    name: "notes",
    description: "Keeps notes.",
    prompt: NOTES_PROMPT,
    tools: ["read"],
    disallowedTools: ["mcp__own__echo", "mcp__own__write_*"],
    mcpServers: [{ name: "own", config: { ...testServerConfig() } }],
  };
  const model = scriptedModel(script("mcp__own__echo"));
  const { config } = rootTree({ workspace: ws, model, registry: registryWith(notes) });

  const run = await runTree(config, "ROOT");

  expect(run.outcome).toMatchObject({ status: "completed", text: "done" });
  const child = model.requests.find((request) => request.system.includes(NOTES_PROMPT));
  const names = child?.tools.map((tool) => tool.name) ?? [];
  // The server ran and its other tools are offered; the refused ones are not, and a call of one is not run.
  expect(names).toContain("mcp__own__read_note");
  expect(names).not.toContain("mcp__own__echo");
  expect(names).not.toContain("mcp__own__write_note");
  const [result] = toolResultsIn(run.session.messages);
  expect(result?.content).toContain("child saw:");
  expect(result?.content).not.toContain("echo: from the child");
});
