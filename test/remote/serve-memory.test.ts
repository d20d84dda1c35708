import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { type Task, TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import type { A2aServer } from "../../src/remote/serve/a2a-http-server.ts";
import { sessionPath } from "../../src/state/state-dir.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { textRequest } from "../cli/support/serve-process.ts";
import { SERVE_TOKEN, sdkClientFactory, serveScripted, taskStore } from "../support/a2a-serve.ts";

/**
 * What `agentry serve` keeps in memory is bounded: idle conversations beyond `openConversations` are
 * let go and taken up again from their transcript when their context speaks again; finished tasks
 * beyond `keptTasks` are answered from their records.
 */
const servers: A2aServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Every reply says which earlier answers the model saw in the conversation. */
function echoModel() {
  return scriptedModel((request: ModelRequest) => {
    const said = request.messages.flatMap((m) =>
      m.role === "user" ? m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])) : [],
    );
    return { text: `heard: ${said.join(" / ")}` };
  });
}

const answerOf = (result: Task | { messageId: string }) =>
  "id" in result
    ? result.artifacts
        .flatMap((a) => a.parts)
        .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
        .join("")
    : "";

async function client(server: A2aServer): Promise<Client> {
  return sdkClientFactory(SERVE_TOKEN).createFromUrl(server.agentUrl("explore"));
}

describe("agentry serve's memory", () => {
  it("lets idle conversations go beyond openConversations and takes them up again from disk", async () => {
    const server = await serveScripted(echoModel(), { persist: true, record: true, openConversations: 2 });
    servers.push(server);
    const sdk = await client(server);
    const contexts = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const [i, context] of contexts.entries()) await sdk.sendMessage(textRequest(`hello ${i}`, context));
    const before = server.opened.length;

    // The first context was let go (two newer ones are open): its history comes back from its transcript.
    const again = await sdk.sendMessage(textRequest("hello again", contexts[0]!));
    expect(answerOf(again)).toBe("heard: hello 0 / hello again");
    expect(server.opened.slice(before)).toEqual([
      { contextId: contexts[0], resume: expect.stringMatching(/\S/) },
    ]);
    // The newest was still open: no reopening.
    await sdk.sendMessage(textRequest("and you", contexts[3]!));
    expect(server.opened).toHaveLength(before + 1);
  });

  it("without records, remembers which session a let-go context had", async () => {
    const server = await serveScripted(echoModel(), { persist: true, openConversations: 1 });
    servers.push(server);
    const sdk = await client(server);
    const [a, b] = [randomUUID(), randomUUID()];
    await sdk.sendMessage(textRequest("first in a", a));
    await sdk.sendMessage(textRequest("first in b", b));
    const again = await sdk.sendMessage(textRequest("back in a", a));
    expect(answerOf(again)).toBe("heard: first in a / back in a");
    expect(server.opened.at(-1)).toMatchObject({ contextId: a, resume: expect.stringMatching(/\S/) });
  });

  it("a context whose transcript is gone fails with the reason instead of starting over", async () => {
    const server = await serveScripted(echoModel(), { persist: true, record: true, openConversations: 1 });
    servers.push(server);
    const sdk = await client(server);
    const [a, b] = [randomUUID(), randomUUID()];
    await sdk.sendMessage(textRequest("first in a", a));
    await sdk.sendMessage(textRequest("first in b", b));
    const [record] = (await taskStore(server.workspace).list()).filter(
      (r) => r.ref?.kind === "a2a" && r.ref.contextId === a,
    );
    await rm(sessionPath(server.workspace, record!.childSessionId));
    const lost = await sdk.sendMessage(textRequest("back in a", a));
    expect("id" in lost && lost.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const why =
      "id" in lost
        ? lost.status?.message?.parts.map((p) => p.content?.$case === "text" && p.content.value)
        : [];
    expect(why?.join("")).toMatch(/conversation of context .* cannot be taken up again/);
  });

  it("keeps keptTasks finished tasks whole in memory; older ones are answered from their records", async () => {
    const server = await serveScripted(echoModel(), { record: true, keptTasks: 2 });
    servers.push(server);
    const sdk = await client(server);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const task = await sdk.sendMessage(textRequest(`task ${i}`, randomUUID()));
      ids.push("id" in task ? task.id : "");
    }
    const oldest = await sdk.getTask({ tenant: "", id: ids[0]!, historyLength: undefined });
    const newest = await sdk.getTask({ tenant: "", id: ids[3]!, historyLength: undefined });
    // From its record: the state and the answer, no messages; the newest is still whole.
    expect(oldest.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(oldest)).toBe("heard: task 0");
    expect(oldest.history).toEqual([]);
    expect(newest.history.length).toBeGreaterThan(0);
    const listed = await sdk.listTasks({
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 3,
      pageToken: "",
      statusTimestampAfter: undefined,
    });
    expect(listed.totalSize).toBe(4);
    expect(listed.tasks).toHaveLength(3);
    const rest = await sdk.listTasks({
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 3,
      pageToken: listed.nextPageToken,
      statusTimestampAfter: undefined,
    });
    expect([...listed.tasks, ...rest.tasks].map((t) => t.id).sort()).toEqual([...ids].sort());
  });
});
