import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

const script = () => [
  {
    text: "Checking.",
    toolCalls: [{ name: "read", args: { path: "a.txt" } }],
    usage: { input: 100, output: 20 },
  },
  { text: "The file says alpha.", usage: { input: 150, output: 10 } },
];

async function run(format: string) {
  ws = await makeWorkspace({ "a.txt": "alpha\n" });
  server = await startModelServer(script());
  return runCli(["run", "--output-format", format, "What does a.txt say?"], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(server, "openai") },
  });
}

/** Every event type documented in docs/stream-json.md. */
const DOCUMENTED = new Set([
  "agent_start",
  "turn_start",
  "text_delta",
  "reasoning_delta",
  "retry",
  "capacity_wait",
  "capacity_granted",
  "usage_estimate",
  "compaction_start",
  "compacted",
  "compaction_failed",
  "assistant_message",
  "tool_start",
  "tool_progress",
  "tool_end",
  "tool_results",
  "user_message",
  "turn_end",
  "agent_end",
  "result",
]);

describe("--output-format json", () => {
  it("prints exactly one result object with text, session id, usage, turns and outcome", async () => {
    const result = await run("json");
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    const object = JSON.parse(lines[0] ?? "");
    expect(object).toMatchObject({
      v: 1,
      type: "result",
      outcome: "completed",
      result: "The file says alpha.",
      turns: 2,
      usage: { input: 250, output: 30 },
    });
    expect(object.sessionId).toMatch(/^\d{8}-\d{6}-[a-z0-9]+$/);
    expect(object.durationMs).toBeGreaterThan(0);
    expect(Object.keys(await (ws as TestWorkspace).transcripts())).toEqual([`${object.sessionId}.jsonl`]);
  });

  it("carries Claude Code's field names beside ours, for scripts written for claude -p", async () => {
    const result = await run("json");
    expect(result.code).toBe(0);
    const object = JSON.parse(result.stdout);
    expect(object).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "The file says alpha.",
      session_id: object.sessionId,
      num_turns: 2,
      duration_ms: object.durationMs,
    });
    // The default OpenAI model has a known price: the tree's cost, under both names.
    expect(object.total_cost_usd).toBeGreaterThan(0);
    expect(object.total_cost_usd).toBe(object.costUsd);
  });

  it("counts the whole tree's tokens in treeUsage when the agent delegates", async () => {
    ws = await makeWorkspace({ "a.txt": "alpha\n" });
    server = await startModelServer([
      {
        toolCalls: [{ name: "task", args: { description: "read a", prompt: "what does a.txt say?" } }],
        usage: { input: 100, output: 20 },
      },
      { toolCalls: [{ name: "read", args: { path: "a.txt" } }], usage: { input: 40, output: 5 } },
      { text: "alpha", usage: { input: 60, output: 3 } },
      { text: "It says alpha.", usage: { input: 150, output: 10 } },
    ]);
    const result = await runCli(["run", "--output-format", "json", "What does a.txt say?"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
    });
    expect(result.code).toBe(0);
    const object = JSON.parse(result.stdout);
    expect(object.usage).toMatchObject({ input: 250, output: 30 });
    expect(object.treeUsage).toMatchObject({ input: 350, output: 38 });
    expect(object.agentRuns).toBe(2);
  });
});

describe("--output-format stream-json", () => {
  it("prints one documented, versioned event per line and ends with the result", async () => {
    const result = await run("stream-json");
    expect(result.code).toBe(0);
    const events = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { v: number; type: string; agentPath?: string[] });
    for (const event of events) {
      expect(event.v).toBe(1);
      expect(DOCUMENTED.has(event.type), event.type).toBe(true);
    }
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("agent_start");
    expect(types.at(-2)).toBe("agent_end");
    expect(types.at(-1)).toBe("result");
    expect(types.filter((type) => type === "result")).toHaveLength(1);
    for (const type of [
      "turn_start",
      "text_delta",
      "assistant_message",
      "tool_start",
      "tool_end",
      "tool_results",
      "turn_end",
    ]) {
      expect(types).toContain(type);
    }
    expect(events.every((event) => event.agentPath?.[0] === "main")).toBe(true);
    // The result line is the root's, like every other line a reader groups by agentPath.
    expect(events.at(-1)).toMatchObject({
      agentPath: ["main"],
      outcome: "completed",
      result: "The file says alpha.",
    });
    expect(result.stderr).toBe("");
  });
});
