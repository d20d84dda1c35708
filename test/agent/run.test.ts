import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { runAgent } from "../../src/agent/run.ts";
import type { AgentEvent } from "../../src/contracts/events.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

it("buffers events for a late consumer and ends the iteration after agent_end", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel([
    { toolCalls: [{ id: "c", name: "sleep", args: { ms: 20 } }] },
    { text: "finished" },
  ]);
  const run = runAgent(testConfig(workspace, model), await sessionWithPrompt(workspace));
  await sleep(10); // the run is underway before anyone listens

  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);

  expect(events[0]?.type).toBe("agent_start");
  expect(events.at(-1)).toMatchObject({
    type: "agent_end",
    outcome: { status: "completed", text: "finished" },
  });
  const last = events.at(-1);
  expect(await run.outcome).toEqual(last?.type === "agent_end" ? last.outcome : "no agent_end");
});

it("passes the abort signal through to the loop", async () => {
  const workspace = await tempWorkspace();
  const controller = new AbortController();
  const run = runAgent(
    testConfig(workspace, scriptedModel([{ text: "slow", delayMs: 5000 }])),
    await sessionWithPrompt(workspace),
    controller.signal,
  );
  controller.abort();
  expect((await run.outcome).status).toBe("aborted");
});
