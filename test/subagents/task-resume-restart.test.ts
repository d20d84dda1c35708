import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, expect, test } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { userText } from "../../src/model/messages.ts";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import { scoutTree } from "./support/resume-scenario.ts";
import {
  tempWorkspace,
  toolResultsIn,
  wireMessages,
  wireTexts,
  wireToolNames,
} from "./support/subagent-harness.ts";

const FIRST_RUN = fileURLToPath(new URL("./support/first-run.ts", import.meta.url));

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test("a completed child is continued after a process restart with its history, model and tools", async () => {
  const ws = await tempWorkspace();
  server = await startModelServer((request) => {
    const texts = wireMessages(request.body).flatMap(wireTexts);
    return texts.at(-1)?.includes("codeword?")
      ? { text: texts.some((t) => t.includes("PELICAN")) ? "The codeword was PELICAN." : "I do not know." }
      : { text: "I will remember PELICAN." };
  });

  // Process 1 starts the child and exits.
  const { stdout } = await promisify(execFile)(process.execPath, [FIRST_RUN, ws, server.url]);
  const first = JSON.parse(stdout) as { rootSessionId: string; taskId: string; status: string };
  expect(first.status).toBe("completed");
  expect(first.taskId).toMatch(/^sub-/);

  // This process is the restart: a new runtime, the root's session resumed from disk.
  const root = scriptedModel((request: ModelRequest): ScriptedReply => {
    const fresh = toolResultsIn(request.messages).length === 1;
    return fresh
      ? {
          toolCalls: [
            {
              name: "task",
              args: { description: "Ask again", prompt: "What was the codeword?", task_id: first.taskId },
            },
          ],
        }
      : { text: "resumed" };
  });
  const { config, runtime } = scoutTree(ws, server.url, root);
  const session = await Session.resume(ws, first.rootSessionId);
  await session.append(userText("Ask the scout again."));
  const outcome = await runAgentLoop(config, session, () => {});
  expect(outcome).toMatchObject({ status: "completed", text: "resumed" });

  const answer = toolResultsIn(session.messages).at(-1);
  expect(answer?.isError).toBe(false);
  expect(answer?.content).toContain(
    `<task_result task_id="${first.taskId}" agent="scout" status="completed">`,
  );
  expect(answer?.content).toContain("The codeword was PELICAN.");
  const [before, after] = server.requests;
  expect(server.requests).toHaveLength(2);
  // The continuation's request holds the earlier turn, then the new prompt.
  expect(wireMessages(after!.body).map((m) => [m.role, wireTexts(m)])).toEqual([
    ["user", ["Remember the codeword PELICAN."]],
    ["assistant", ["I will remember PELICAN."]],
    ["user", ["What was the codeword?"]],
  ]);
  // Same model, same system prompt and the same restricted tools as before the restart.
  expect(after!.body.model).toBe(before!.body.model);
  expect(after!.body.model).toMatch(/^claude-haiku/);
  expect(wireToolNames(after!.body)).toEqual(["read"]);
  expect(wireToolNames(before!.body)).toEqual(["read"]);
  expect(after!.body.system).toEqual(before!.body.system);
  expect(runtime.child(first.taskId)?.agentPath).toEqual(["main", "scout-1"]);
  expect(runtime.started).toBe(0);
  expect(await runtime.store.get(first.taskId)).toMatchObject({
    status: "COMPLETED",
    result: "The codeword was PELICAN.",
    owner: runtime.owner,
  });
});
