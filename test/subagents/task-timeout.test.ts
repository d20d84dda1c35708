import { expect, test } from "vitest";
import { scriptedModel } from "../../src/testing/index.ts";
import { gate } from "./support/gate.ts";
import { notificationsIn } from "./support/notifications.ts";
import {
  firstUserText,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

test("a sync child past its call timeout is promoted to the background, and its result still arrives", async () => {
  const workspace = await tempWorkspace();
  const late = gate();
  const model = scriptedModel(async (request) => {
    if (firstUserText(request.messages) !== "ROOT") {
      await late.opened;
      return { text: "the late result" };
    }
    const results = toolResultsIn(request.messages);
    if (results.length === 0)
      return {
        toolCalls: [
          { name: "task", args: { description: "Slow work", prompt: "CHILD", subagent_type: "explore" } },
        ],
      };
    const notes = notificationsIn(request.messages);
    // The child answers only once the parent has gone on without it.
    setTimeout(late.open, 100);
    return { text: notes.length === 0 ? "went on without it" : `got it: ${notes.length}` };
  });
  const { config, runtime } = rootTree({ workspace, model, limits: { timeoutMs: 150 } });

  // The child answers only after the parent went on: without the promotion the run would never end.
  const run = await runTree(config, "ROOT");
  const [promoted] = toolResultsIn(run.session.messages);
  expect(promoted?.isError).toBe(false);
  const taskId = /as task_id (sub-[a-z0-9-]+)/.exec(promoted!.content)?.[1];
  expect(promoted?.content).toMatch(
    /^Subagent explore is still running in the background as task_id sub-[a-z0-9-]+ \(it took longer than the 150ms a task call waits\), you will be notified/,
  );
  // The parent went on; when it ended its turn the run waited for the child and handed over its result.
  expect(
    model.requests
      .filter((r) => firstUserText(r.messages) === "ROOT")
      .map((r) => notificationsIn(r.messages).length),
  ).toEqual([0, 0, 1]);
  const [note] = notificationsIn(run.session.messages);
  expect(note).toContain(`<task-id>${taskId}</task-id>`);
  expect(note).toContain("<status>completed</status>");
  expect(note).toContain("<result>\nthe late result\n</result>");
  expect(run.outcome).toMatchObject({ status: "completed", text: "got it: 1" });
  const childEnd = run.of("agent_end").find((event) => event.agentPath.length === 2);
  expect(childEnd?.outcome.status).toBe("completed");
  expect(await runtime.store.get(taskId!)).toMatchObject({
    status: "COMPLETED",
    background: true,
    result: "the late result",
    deliveredAt: expect.any(String),
  });
});
