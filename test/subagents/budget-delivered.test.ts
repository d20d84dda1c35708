import { expect, test } from "vitest";
import { watchTreeBudget } from "../../src/agent/limits/tree-budget.ts";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { userText } from "../../src/model/messages.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { CHILD_MARK, rootTree, tempWorkspace } from "./support/subagent-harness.ts";

// An answer that was delivered stays delivered: when the reply that crosses a budget is an agent's
// final answer (no tool calls), that agent completed. Only what comes after it is stopped. The
// budget watch here sees every event as it is emitted, so the abort lands at once.

async function runTree(childUsage: { input: number; output: number }, maxTokens: number) {
  const ws = await tempWorkspace();
  const model = scriptedModel((request) => {
    if (request.system.includes(CHILD_MARK)) return { text: "the child's answer", usage: childUsage };
    return request.messages.length === 1
      ? { toolCalls: [{ name: "task", args: { description: "Answer", prompt: "answer" } }] }
      : { text: "the root's answer", usage: childUsage };
  });
  const { config, runtime } = rootTree({ workspace: ws, model });
  const session = await Session.create({ workspace: ws, agentName: "main", model: model.id, persist: false });
  await session.append(userText("ROOT"));
  const controller = new AbortController();
  const watch = watchTreeBudget({ maxTokens }, controller);
  const outcome = await runAgentLoop(config, session, (event) => watch.observe(event), controller.signal);
  return { outcome, records: await runtime.store.list({}) };
}

test("a child whose final reply crosses the tree budget is COMPLETED with its answer; the root stops after", async () => {
  const { outcome, records } = await runTree({ input: 100, output: 50_000 }, 30_000);
  expect(records).toEqual([expect.objectContaining({ status: "COMPLETED", result: "the child's answer" })]);
  expect(records[0]).not.toHaveProperty("reason");
  expect(outcome.status).toBe("budget_exceeded");
});

test("the root's final reply crossing the budget is its answer: the run completed", async () => {
  const ws = await tempWorkspace();
  const model = scriptedModel([{ text: "the answer", usage: { input: 100, output: 50_000 } }]);
  const { config } = rootTree({ workspace: ws, model });
  const session = await Session.create({ workspace: ws, agentName: "main", model: model.id, persist: false });
  await session.append(userText("ROOT"));
  const controller = new AbortController();
  const watch = watchTreeBudget({ maxTokens: 30_000 }, controller);
  const outcome = await runAgentLoop(config, session, (event) => watch.observe(event), controller.signal);
  expect(outcome).toMatchObject({ status: "completed", text: "the answer" });
  expect(controller.signal.aborted).toBe(true);
});

test("a child whose final reply crosses its own token budget is COMPLETED too", async () => {
  const ws = await tempWorkspace();
  const model = scriptedModel((request) =>
    request.system.includes(CHILD_MARK)
      ? { text: "the child's answer", usage: { input: 100, output: 50_000 } }
      : request.messages.length === 1
        ? { toolCalls: [{ name: "task", args: { description: "Answer", prompt: "answer" } }] }
        : { text: "root done" },
  );
  const { config, runtime } = rootTree({ workspace: ws, model, limits: { maxTokens: 30_000 } });
  const session = await Session.create({ workspace: ws, agentName: "main", model: model.id, persist: false });
  await session.append(userText("ROOT"));
  const outcome = await runAgentLoop(config, session, () => {});
  expect(outcome).toMatchObject({ status: "completed", text: "root done" });
  expect(await runtime.store.list({})).toEqual([
    expect.objectContaining({ status: "COMPLETED", result: "the child's answer" }),
  ]);
});
