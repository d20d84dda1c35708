import { afterEach, describe, expect, it } from "vitest";
import { CHILD_MARK, wireSystem } from "../../subagents/support/subagent-harness.ts";
import {
  type ModelServer,
  type RecordedRequest,
  type ServerStep,
  startModelServer,
} from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

// `--max-tokens` holds while replies stream, not only after each call: a reply that would carry the
// run past it is cut off mid-stream. And an answer that was delivered stays delivered: the agent
// whose final reply crossed the budget completed (a child's record says COMPLETED, with its result).

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  server = undefined;
  ws = undefined;
});

const isChild = (request: RecordedRequest) => wireSystem(request.body).includes(CHILD_MARK);

async function run(budget: number, script: ServerStep) {
  ws = await makeWorkspace();
  server = await startModelServer(script);
  const result = await runCli(["run", "-o", "json", "--max-tokens", String(budget), "go"], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(server, "anthropic") },
  });
  const json = JSON.parse(result.stdout) as { outcome: string; reason?: string; result: string };
  const tasks = await runCli(["tasks", "list", "--json"], { cwd: ws.dir, env: ws.env });
  return { code: result.code, json, records: JSON.parse(tasks.stdout) as Array<Record<string, unknown>> };
}

describe("--max-tokens during streaming", () => {
  it("a reply that would pass the budget is cut off while it streams (exit 4)", async () => {
    const long = "word ".repeat(8_000); // 40,000 characters: about 10,000 tokens
    const { code, json } = await run(8_000, {
      text: long,
      chunkDelayMs: 200,
      usage: { input: 100, output: 10_000 },
    });

    expect(code).toBe(4);
    expect(json.outcome).toBe("budget_exceeded");
    expect(json.reason).toMatch(
      /^token budget of the run exceeded: 0 tokens used .*, and about \d+ for the model calls in flight, which were stopped; the limit is 8000/,
    );
    expect(json.result).toBe("");
  });

  it("a child whose final reply crosses the budget completed: its record holds its answer", async () => {
    const { code, json, records } = await run(30_000, (request) => {
      if (isChild(request)) return { text: "the child's answer", usage: { input: 100, output: 50_000 } };
      return { toolCalls: [{ name: "task", args: { description: "Answer", prompt: "answer" } }] };
    });

    // The root's next step would be a model call over the budget: the run stops there.
    expect(code).toBe(4);
    expect(json.outcome).toBe("budget_exceeded");
    expect(records).toEqual([expect.objectContaining({ status: "COMPLETED", result: "the child's answer" })]);
  });

  it("the root's final reply crossing the budget is its answer: completed, exit 0", async () => {
    const { code, json } = await run(30_000, {
      text: "the final answer",
      usage: { input: 100, output: 50_000 },
    });

    expect(code).toBe(0);
    expect(json).toMatchObject({ outcome: "completed", result: "the final answer" });
  });
});
