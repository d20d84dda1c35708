import { randomUUID } from "node:crypto";
import { type Task, TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceTaskStore } from "../../../src/tasks/workspace/workspace-task-store.ts";
import { sdkClientFactory } from "../../support/a2a-serve.ts";
import { startModelServer } from "../../support/model-server.ts";
import { waitFor } from "../../support/processes.ts";
import { makeWorkspace } from "../support/cli-process.ts";
import { SERVE_PROCESS_TOKEN, startServeProcess, textRequest } from "../support/serve-process.ts";

/**
 * `agentry serve` killed (SIGKILL) and started again on the same workspace, driven by the official SDK
 * client: GetTask and ListTasks answer for every earlier task from its record — finished, cancelled
 * while it waited for a slot, running or waiting when the server died — and a message in an earlier
 * context continues that conversation.
 */
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const idOf = (result: Awaited<ReturnType<Client["sendMessage"]>>) => ("id" in result ? result.id : "");
const answerOf = (task: Task) =>
  task.artifacts
    .flatMap((artifact) => artifact.parts)
    .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
    .join("");
const statusText = (task: Task) =>
  (task.status?.message?.parts ?? [])
    .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
    .join("");

describe("agentry serve after a kill and a restart", () => {
  it("answers GetTask and ListTasks for every earlier task, and continues an earlier context", async () => {
    const model = await startModelServer((request) => {
      const body = JSON.stringify(request.body);
      if (body.includes("slow work")) return { text: "never", delayMs: 120_000 };
      if (body.includes("second question"))
        return { text: `remembered: ${body.includes("answer to the first question")}` };
      return { text: "answer to the first question" };
    });
    cleanup.push(() => model.close());
    // One task at a time, so the others wait for a slot.
    const ws = await makeWorkspace({
      ".agentry/config.json": JSON.stringify({ subagents: { maxConcurrent: 1 } }),
    });
    const store = new WorkspaceTaskStore({ workspace: ws.dir });
    const first = await startServeProcess(ws, model, cleanup);
    const client = await sdkClientFactory(SERVE_PROCESS_TOKEN).createFromUrl(first.url("explore"));

    const contextA = randomUUID();
    const done = idOf(await client.sendMessage(textRequest("first question", contextA)));
    const running = idOf(await client.sendMessage(textRequest("slow work", randomUUID(), true)));
    await waitFor(() => model.requests.length === 2, 10_000, "the slow task to reach the model");
    const cancelled = idOf(
      await client.sendMessage(textRequest("waits, then is cancelled", randomUUID(), true)),
    );
    await client.cancelTask({ tenant: "", id: cancelled, metadata: undefined });
    await waitFor(
      async () => (await store.get(cancelled))?.status === "CANCELLED",
      10_000,
      "the task cancelled while waiting to be recorded CANCELLED",
    );
    const waiting = idOf(
      await client.sendMessage(textRequest("waits when the server dies", randomUUID(), true)),
    );
    await waitFor(async () => (await store.get(waiting)) !== undefined, 10_000, "the waiting task's record");

    first.process.kill("SIGKILL");
    await first.exited;
    const second = await startServeProcess(ws, model, cleanup);
    const again = await sdkClientFactory(SERVE_PROCESS_TOKEN).createFromUrl(second.url("explore"));
    const get = (id: string) => again.getTask({ tenant: "", id, historyLength: undefined });

    const completed = await get(done);
    expect(completed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(completed.contextId).toBe(contextA);
    expect(answerOf(completed)).toBe("answer to the first question");
    expect((await get(cancelled)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    for (const lost of [running, waiting]) {
      const task = await get(lost);
      expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
      expect(statusText(task)).toMatch(/owner process .* is gone/);
    }
    const listed = await again.listTasks({
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: "",
      statusTimestampAfter: undefined,
    });
    expect(listed.tasks.map((task) => task.id).sort()).toEqual([done, running, cancelled, waiting].sort());
    expect((await store.get(running))?.status).toBe("FAILED");

    const followUp = await again.sendMessage(textRequest("second question", contextA));
    expect("id" in followUp && answerOf(followUp)).toBe("remembered: true");
  }, 90_000);
});
