import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { userText } from "../../src/model/messages.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import { isRunning, pidFrom } from "../support/processes.ts";
import { scoutTree } from "./support/resume-scenario.ts";
import { tempWorkspace, toolResultsIn, wireMessages, wireTexts } from "./support/subagent-harness.ts";

const MID_CHILD_RUN = fileURLToPath(new URL("./support/mid-child-run.ts", import.meta.url));

let server: ModelServer | undefined;
let first: ChildProcess | undefined;
const strays: number[] = [];
afterEach(async () => {
  if (first && first.exitCode === null && first.signalCode === null) {
    first.kill("SIGKILL");
    await once(first, "exit");
  }
  // The worker's bash ran in its own process group and outlives a kill -9 of its process.
  for (const pid of strays.splice(0)) if (isRunning(pid)) process.kill(pid, "SIGKILL");
  await server?.close();
  server = undefined;
});

test("a run killed mid-child is resumed, and the parent continues that child by task_id with its history", async () => {
  const ws = await tempWorkspace();
  const pidFile = join(ws, "worker.pid");
  server = await startModelServer((request) => {
    const texts = wireMessages(request.body).flatMap(wireTexts);
    if (texts.at(-1) === "Carry on.") {
      const remembered = texts.includes("Do the long job.")
        ? "I had started the long job"
        : "I remember nothing";
      return { text: `${remembered}; finished it now.` };
    }
    return { toolCalls: [{ name: "bash", args: { command: `echo $$ > ${pidFile}; exec sleep 60` } }] };
  });

  // Process 1: the root hands the job over; the worker's bash is running when the process is killed.
  first = spawn(process.execPath, [MID_CHILD_RUN, ws, server.url], { stdio: ["ignore", "pipe", "pipe"] });
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: first!.stdout! }).once("line", resolve),
  );
  const rootSessionId = /^session (\S+)$/.exec(line)?.[1];
  expect(rootSessionId).toBeDefined();
  const bashPid = await pidFrom(pidFile);
  strays.push(bashPid);
  first.kill("SIGKILL");
  await once(first, "exit");

  const [orphan] = await new WorkspaceTaskStore({ workspace: ws }).list({});
  expect(orphan).toMatchObject({ agentType: "worker", status: "RUNNING", description: "Long job" });
  const taskId = orphan!.taskId;

  // This process is the restart: a new runtime; the root resumed from disk continues the same child.
  let rootTurns = 0;
  const root = scriptedModel((): ScriptedReply => {
    rootTurns += 1;
    return rootTurns === 1
      ? {
          toolCalls: [
            { name: "task", args: { description: "Finish it", prompt: "Carry on.", task_id: taskId } },
          ],
        }
      : { text: "resumed" };
  });
  const { config, runtime } = scoutTree(ws, server.url, root);
  const session = await Session.resume(ws, rootSessionId!);
  await session.append(userText("Continue the long job."));
  const outcome = await runAgentLoop(config, session, () => {});
  expect(outcome).toMatchObject({ status: "completed", text: "resumed" });

  const continued = toolResultsIn(session.messages).at(-1);
  expect(continued?.isError, continued?.content).toBe(false);
  expect(continued?.content).toContain(`<task_result task_id="${taskId}" agent="worker" status="completed">`);
  expect(continued?.content).toContain("I had started the long job; finished it now.");

  // The child's continuation holds what it did before the kill: its prompt, the bash call, then the new prompt.
  const request = server.requests.at(-1)!;
  const texts = wireMessages(request.body).flatMap(wireTexts);
  expect(texts[0]).toBe("Do the long job.");
  expect(texts.at(-1)).toBe("Carry on.");
  const bashCalls = wireMessages(request.body).flatMap((message) =>
    typeof message.content === "string" ? [] : message.content.filter((block) => block.type === "tool_use"),
  );
  expect(bashCalls).toEqual([expect.objectContaining({ name: "bash" })]);
  expect(await runtime.store.get(taskId)).toMatchObject({
    status: "COMPLETED",
    result: "I had started the long job; finished it now.",
    owner: runtime.owner,
  });
});
