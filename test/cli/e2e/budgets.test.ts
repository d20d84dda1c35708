import { afterEach, describe, expect, it } from "vitest";
import type { Usage } from "../../../src/model/messages.ts";
import { CHILD_MARK, wireMessages, wireSystem } from "../../subagents/support/subagent-harness.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

const isChild = (request: RecordedRequest) => wireSystem(request.body).includes(CHILD_MARK);

/** The root delegates once; the child lists the folder turn after turn, 1,000 tokens a turn (or hangs). */
function delegateToSpender(childReply: Record<string, unknown>) {
  return (request: RecordedRequest) => {
    if (isChild(request)) return childReply;
    return wireMessages(request.body).length === 1
      ? { toolCalls: [{ name: "task", args: { description: "Spend", prompt: "spend" } }] }
      : { text: "done" };
  };
}

async function run(args: string[], childReply: Record<string, unknown>) {
  ws = await makeWorkspace({ "notes.txt": "note\n" });
  server = await startModelServer(delegateToSpender(childReply));
  return runCli(["run", "--permission-mode", "bypass", "-o", "json", ...args, "Spend tokens"], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(server, "anthropic") },
  });
}

describe("agentry run budgets cover the whole tree", () => {
  it("--max-tokens stops the tree with exit 4 before the call that would pass it", async () => {
    const result = await run(["--max-tokens", "12000"], {
      toolCalls: [{ name: "list", args: {} }],
      usage: { input: 3_000, output: 100 },
    });

    expect(result.code).toBe(4);
    const json = JSON.parse(result.stdout) as { outcome: string; reason: string; treeUsage: Usage };
    expect(json.outcome).toBe("budget_exceeded");
    // The root's reply (20 tokens) and three child calls of 3,100; the fourth, its prompt estimated
    // from the third's, would pass 12,000 and is stopped before it streams anything.
    expect(json.reason).toMatch(
      /^token budget of the run exceeded: 9320 tokens used by the agent and its subagents, and about 3\d{3} for the model calls in flight, which were stopped; the limit is 12000/,
    );
    const { input, output, cacheRead, cacheWrite } = json.treeUsage;
    expect(input + output + cacheRead + cacheWrite).toBe(9_320);
    const completed = server?.requests.filter(
      (request) => isChild(request) && request.finishedAt !== undefined,
    );
    expect(completed?.length).toBeGreaterThanOrEqual(3);

    const tasks = await runCli(["tasks", "list", "--json"], { cwd: ws?.dir ?? "", env: ws?.env ?? {} });
    const records = JSON.parse(tasks.stdout) as Array<{ status: string; reason?: string }>;
    expect(records.map((record) => [record.status, record.reason])).toEqual([["FAILED", "budget"]]);
  });

  it("--timeout stops a run whose subagent hangs, with exit 4", async () => {
    // Not stopped, the subagent would answer after 30 s and the run complete with exit 0.
    const result = await run(["--timeout", "1"], { text: "slow", delayMs: 30_000 });

    expect(result.code).toBe(4);
    expect(JSON.parse(result.stdout)).toMatchObject({
      outcome: "budget_exceeded",
      reason: "time budget of the run exceeded: 1s",
    });
  });

  it("a budget that is not a positive number is a usage error (exit 2) before anything runs", async () => {
    ws = await makeWorkspace();
    const result = await runCli(["run", "--max-cost", "lots", "hi"], { cwd: ws.dir, env: ws.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "option '--max-cost <usd>' argument 'lots' is invalid. must be a positive number.",
    );
  });
});
