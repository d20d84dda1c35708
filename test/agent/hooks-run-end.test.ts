import { expect, it } from "vitest";
import type { Hooks } from "../../src/agent/hooks.ts";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { readTranscript } from "../../src/agent/session/transcript.ts";
import type { AgentEvent } from "../../src/contracts/events.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

it("runs onRunEnd once, awaited, before the outcome is recorded and agent_end is sent", async () => {
  const workspace = await tempWorkspace();
  const order: string[] = [];
  const hooks: Hooks = {
    onRunEnd: async ({ status, signal }) => {
      order.push(`hook start ${status} aborted=${signal.aborted}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push("hook end");
    },
  };
  const outcome = await runAgentLoop(
    testConfig(workspace, scriptedModel([{ text: "done" }]), { hooks: [hooks] }),
    await sessionWithPrompt(workspace),
    (event: AgentEvent) => {
      if (event.type === "agent_end") order.push("agent_end");
    },
  );
  expect(outcome.status).toBe("completed");
  expect(order).toEqual(["hook start completed aborted=false", "hook end", "agent_end"]);
});

it("sees the aborted signal on an aborted run, and a failing hook is recorded without changing the outcome", async () => {
  const workspace = await tempWorkspace();
  const seen: string[] = [];
  const failing: Hooks = {
    onRunEnd: ({ status, signal }) => {
      seen.push(`${status} aborted=${signal.aborted}`);
      throw new Error("cleanup broke");
    },
  };
  const controller = new AbortController();
  controller.abort("user pressed Ctrl-C");
  const session = await sessionWithPrompt(workspace);
  const outcome = await runAgentLoop(
    testConfig(workspace, scriptedModel([{ text: "never" }]), { hooks: [failing] }),
    session,
    () => {},
    controller.signal,
  );
  expect(outcome).toMatchObject({ status: "aborted", reason: "user pressed Ctrl-C" });
  expect(seen).toEqual(["aborted aborted=true"]);
  const { entries } = await readTranscript(session.transcriptPath ?? "");
  expect(entries).toContainEqual(
    expect.objectContaining({ type: "error", message: "an onRunEnd hook failed: cleanup broke" }),
  );
});
