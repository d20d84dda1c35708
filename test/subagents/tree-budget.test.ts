import { expect, test } from "vitest";
import { watchTreeBudget } from "../../src/agent/limits/tree-budget.ts";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { userText } from "../../src/model/messages.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { CHILD_MARK, rootTree, tempWorkspace } from "./support/subagent-harness.ts";

/** The root delegates once; the child lists the folder forever, each of its turns costing 1,000 tokens. */
const spender = () =>
  scriptedModel((request) => {
    if (request.system.includes(CHILD_MARK))
      return { toolCalls: [{ name: "list", args: {} }], usage: { input: 900, output: 100, cost: 0.01 } };
    return request.messages.length === 1
      ? { toolCalls: [{ name: "task", args: { description: "Spend", prompt: "spend" } }] }
      : { text: "done" };
  });

async function runWithBudget(budget: Parameters<typeof watchTreeBudget>[0]) {
  const ws = await tempWorkspace();
  const model = spender();
  const { config, runtime } = rootTree({ workspace: ws, model });
  const session = await Session.create({ workspace: ws, agentName: "main", model: model.id, persist: false });
  await session.append(userText("ROOT"));
  const controller = new AbortController();
  const watch = watchTreeBudget(budget, controller);
  const outcome = await runAgentLoop(config, session, (event) => watch.observe(event), controller.signal);
  return { outcome, model, watch, records: await runtime.store.list({}) };
}

test("a token budget counts the subagents' calls, and stops the tree before the call that would pass it", async () => {
  const { outcome, model, watch, records } = await runWithBudget({ maxTokens: 7_500 });

  expect(outcome.status).toBe("budget_exceeded");
  expect(outcome.status === "budget_exceeded" && outcome.reason).toMatch(
    /^token budget of the run exceeded: 7020 tokens used by the agent and its subagents, and about 9\d\d for the model calls in flight, which were stopped; the limit is 7500/,
  );
  // The root's call (20 tokens) and seven child calls of 1,000 fit; the eighth, its prompt estimated
  // from the seventh's, would pass the budget and is not made: no overshoot. (The root's first call
  // was estimated at four characters a token of its request, about 4,700, and fit too.)
  expect(model.requests.filter((request) => request.system.includes(CHILD_MARK))).toHaveLength(7);
  expect(watch.usage).toMatchObject({ input: 6_310, output: 710 });
  expect(records.map((record) => [record.status, record.reason])).toEqual([["FAILED", "budget"]]);
});

test("a cost budget stops the tree once the priced turns cost more", async () => {
  const { outcome, model } = await runWithBudget({ maxCostUsd: 0.015 });

  expect(outcome.status).toBe("budget_exceeded");
  expect(outcome.status === "budget_exceeded" && outcome.reason).toMatch(
    /^cost budget of the run exceeded: \$0\.0200 spent by the agent and its subagents, the limit is \$0\.015/,
  );
  expect(model.requests.filter((request) => request.system.includes(CHILD_MARK))).toHaveLength(2);
});

test("a time budget stops the tree when it runs out, children included", async () => {
  const ws = await tempWorkspace();
  const model = scriptedModel((request) =>
    request.system.includes(CHILD_MARK)
      ? { text: "slow", delayMs: 10_000 }
      : { toolCalls: [{ name: "task", args: { description: "Slow", prompt: "slow" } }] },
  );
  const { config, runtime } = rootTree({ workspace: ws, model });
  const session = await Session.create({ workspace: ws, agentName: "main", model: model.id, persist: false });
  await session.append(userText("ROOT"));
  const controller = new AbortController();
  const watch = watchTreeBudget({ maxDurationMs: 300 }, controller);
  const outcome = await runAgentLoop(config, session, (event) => watch.observe(event), controller.signal);
  watch.dispose();

  expect(outcome).toMatchObject({
    status: "budget_exceeded",
    reason: "time budget of the run exceeded: 0.3s",
  });
  // Not stopped, the child would have answered "slow" and its record say COMPLETED.
  const records = await runtime.store.list({});
  expect(records.map((record) => [record.status, record.reason])).toEqual([["FAILED", "budget"]]);
});
