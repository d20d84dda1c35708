import { expect, test } from "vitest";
import { readTranscript, transcriptMessages } from "../../src/agent/session/transcript.ts";
import type { ModelRequest } from "../../src/model/model.ts";
import { sessionPath } from "../../src/state/state-dir.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import {
  CHILD_MARK,
  firstUserText,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

const taskIdIn = (text: string) => /task_id="(sub-[^"]+)"/.exec(text)?.[1];
const lastUser = (request: ModelRequest) => {
  const message = request.messages.at(-1);
  return message?.role === "user"
    ? message.content.map((p) => (p.type === "text" ? p.text : "")).join("")
    : "";
};

test("task_id continues a child with its whole history, the same definition, model, tools and path", async () => {
  const workspace = await tempWorkspace();
  const child = scriptedModel(
    (request: ModelRequest): ScriptedReply => ({ text: `answer to ${lastUser(request)}` }),
    { id: "scripted:child" },
  );
  const parent = scriptedModel(
    (request: ModelRequest): ScriptedReply => {
      const results = toolResultsIn(request.messages);
      if (results.length === 0)
        return {
          toolCalls: [
            {
              name: "task",
              args: { description: "First look", prompt: "FIRST", subagent_type: "explore", model: "small" },
            },
          ],
        };
      if (results.length === 1) {
        const id = taskIdIn(results[0]!.content);
        // No subagent_type or model: the continuation keeps the child's own.
        return {
          toolCalls: [{ name: "task", args: { description: "Follow up", prompt: "SECOND", task_id: id } }],
        };
      }
      return { text: "done" };
    },
    { id: "scripted:parent" },
  );
  const { config, runtime } = rootTree({ workspace, model: parent, createModel: () => child });

  const run = await runTree(config, "ROOT");
  expect(run.outcome).toMatchObject({ status: "completed", text: "done" });
  const [first, second] = toolResultsIn(run.session.messages);
  const id = taskIdIn(first!.content);
  expect(id).toMatch(/^sub-/);
  expect(taskIdIn(second!.content)).toBe(id);
  expect(second?.content).toContain("answer to SECOND");
  expect(second?.content).toContain("model: scripted:child");

  expect(child.requests).toHaveLength(2);
  const [one, two] = child.requests;
  expect(two!.system).toBe(one!.system);
  expect(two!.tools.map((t) => t.name)).toEqual(one!.tools.map((t) => t.name));
  expect(two!.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  expect(two!.messages.slice(0, 2)).toEqual([
    ...one!.messages,
    expect.objectContaining({ role: "assistant" }),
  ]);
  expect(lastUser(two!)).toBe("SECOND");
  expect(one!.system).toContain(CHILD_MARK);

  const starts = run.of("agent_start").filter((e) => e.agentPath.length === 2);
  expect(starts.map((e) => [e.agentPath.join("/"), e.sessionId, e.description])).toEqual([
    ["main/explore-1", id, "First look"],
    ["main/explore-1", id, "Follow up"],
  ]);
  expect(runtime.started).toBe(1);
  const transcript = await readTranscript(sessionPath(workspace, id!));
  expect(transcriptMessages(transcript).map((m) => m.role)).toEqual([
    "user",
    "assistant",
    "user",
    "assistant",
  ]);
});

test("an unknown task_id is a clear error and starts nothing", async () => {
  const workspace = await tempWorkspace();
  const parent = scriptedModel(
    (request: ModelRequest): ScriptedReply =>
      toolResultsIn(request.messages).length === 0
        ? {
            toolCalls: [
              { name: "task", args: { description: "Continue it", prompt: "more", task_id: "sub-nope" } },
            ],
          }
        : { text: "done" },
  );
  const { config, runtime } = rootTree({ workspace, model: parent });

  await runTree(config, "ROOT");
  const [result] = toolResultsIn(parent.requests.at(-1)!.messages);
  expect(result?.isError).toBe(true);
  expect(result?.content).toBe(
    'Unknown task_id "sub-nope": no subagent with that id exists. You have started no subagents yet. Omit task_id to start a new subagent.',
  );
  expect(runtime.started).toBe(0);
});

test("only a child's parent may continue it, and not while it runs", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    const prompt = firstUserText(request.messages);
    const results = toolResultsIn(request.messages);
    if (prompt.startsWith("STEAL ")) {
      return results.length === 0
        ? {
            toolCalls: [
              { name: "task", args: { description: "Steal it", prompt: "more", task_id: prompt.slice(6) } },
            ],
          }
        : { text: results[0]!.content };
    }
    if (prompt !== "ROOT")
      return { text: `answer to ${lastUser(request)}`, delayMs: lastUser(request) === "SLOW" ? 200 : 0 };
    if (results.length === 0)
      return { toolCalls: [{ name: "task", args: { description: "First", prompt: "FIRST" } }] };
    if (results.length === 1) {
      const id = taskIdIn(results[0]!.content)!;
      // A sibling tries to continue it; at the same time the root continues it twice at once.
      return {
        toolCalls: [
          { name: "task", args: { description: "Thief", prompt: `STEAL ${id}` } },
          { name: "task", args: { description: "Again", prompt: "SLOW", task_id: id } },
          { name: "task", args: { description: "Again too", prompt: "SLOW", task_id: id } },
        ],
      };
    }
    return { text: "done" };
  });
  const { config } = rootTree({ workspace, model, limits: { maxDepth: 2 } });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  const [, thief, again, againToo] = toolResultsIn(run.session.messages);
  expect(thief?.content).toContain("belongs to another agent's subagent; only its parent can continue it");
  const outcomes = [again, againToo].map((r) => r?.content ?? "");
  expect(outcomes.filter((c) => c.includes("answer to SLOW"))).toHaveLength(1);
  expect(outcomes.filter((c) => c.includes("is still running; wait for its result"))).toHaveLength(1);
});
