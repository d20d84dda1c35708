import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { listSessions } from "../../src/agent/session/transcript.ts";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { rootTree, runTree, tempWorkspace, toolResultsIn } from "./support/subagent-harness.ts";

test("a child's events bubble into the root's stream with its path, and its transcript names its parent", async () => {
  const ws = await tempWorkspace();
  await writeFile(join(ws, "a.txt"), "alpha\n");
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    const results = toolResultsIn(request.messages);
    if (request.system.includes("exploration agent"))
      return results.length === 0
        ? { toolCalls: [{ name: "read", args: { path: "a.txt" } }] }
        : { text: "a.txt says alpha" };
    return results.length === 0
      ? {
          toolCalls: [
            {
              name: "task",
              args: { description: "Read a file", prompt: "read a.txt", subagent_type: "explore" },
            },
          ],
        }
      : { text: "done" };
  });
  const { config } = rootTree({ workspace: ws, model });

  const run = await runTree(config, "ROOT");
  const child = run.events.filter((e) => e.agentPath.join("/") === "main/explore-1");
  expect(child.map((e) => e.type)).toEqual([
    "agent_start",
    "turn_start",
    "usage_estimate",
    "assistant_message",
    "tool_start",
    "tool_end",
    "tool_results",
    "turn_end",
    "turn_start",
    "usage_estimate",
    "text_delta",
    "assistant_message",
    "turn_end",
    "agent_end",
  ]);
  const start = child[0];
  const taskId = start?.type === "agent_start" ? start.sessionId : "";
  expect(start).toEqual({
    type: "agent_start",
    agentPath: ["main", "explore-1"],
    sessionId: expect.stringMatching(/^sub-/),
    parentSessionId: run.session.id,
    agentType: "explore",
    model: "scripted:model",
    description: "Read a file",
  });
  // The child's events arrive while the parent's task call runs: between its tool_start and tool_end.
  const index = (predicate: (e: (typeof run.events)[number]) => boolean) => run.events.findIndex(predicate);
  const taskStart = index((e) => e.type === "tool_start" && e.name === "task");
  const taskEnd = index((e) => e.type === "tool_end" && e.name === "task");
  expect(taskStart).toBeLessThan(run.events.indexOf(child[0]!));
  expect(run.events.indexOf(child.at(-1)!)).toBeLessThan(taskEnd);

  const sessions = await listSessions(ws);
  expect(sessions).toEqual([
    expect.objectContaining({
      id: taskId,
      parentSessionId: run.session.id,
      agentName: "explore",
      messageCount: 4,
    }),
  ]);
});
