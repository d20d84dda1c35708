import { randomUUID } from "node:crypto";
import { type Message, Role, type StreamResponse, TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { afterEach, describe, expect, it } from "vitest";
import type { A2aServer } from "../../src/remote/serve/a2a-http-server.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { SERVE_TOKEN, sdkClientFactory, serveScripted, taskStore } from "../support/a2a-serve.ts";
import { waitFor } from "../support/processes.ts";

/**
 * The official SDK's client (code we did not write) drives agentry's A2A server: the card, send,
 * stream, get, list, cancel and a follow-up in the same context; and the bearer token is enforced.
 */
const servers: A2aServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The SDK's client for the agent at `url`, given as it is (the card found by the SDK's own rule). */
function sdkClient(url: string, token: string | undefined): Promise<Client> {
  return sdkClientFactory(token).createFromUrl(url);
}

function userMessage(text: string, contextId: string, taskId = ""): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_USER,
    parts: [
      { content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function request(message: Message, returnImmediately = false) {
  return {
    tenant: "",
    message,
    configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately },
    metadata: undefined,
  };
}

function artifactText(task: { artifacts?: Array<{ parts: Message["parts"] }> }): string {
  return (task.artifacts ?? [])
    .flatMap((artifact) => artifact.parts)
    .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
    .join("");
}

describe("agentry serve driven by the official SDK client", () => {
  it("serves the card; send, a follow-up in the same context, stream, get and list", async () => {
    const model = scriptedModel([
      { text: "first answer" },
      { text: "second answer" },
      { text: "streamed answer" },
    ]);
    const server = await serveScripted(model);
    servers.push(server);
    const url = server.agentUrl("explore");
    const client = await sdkClient(url, SERVE_TOKEN);

    const card = await client.getAgentCard();
    expect(card).toMatchObject({ name: "explore", capabilities: { streaming: true } });
    expect(card.supportedInterfaces[0]).toMatchObject({
      url,
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    });

    const contextId = randomUUID();
    const first = await client.sendMessage(request(userMessage("question one", contextId)));
    expect("id" in first && first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect("id" in first && artifactText(first)).toBe("first answer");

    const second = await client.sendMessage(request(userMessage("question two", contextId)));
    expect("id" in second && artifactText(second)).toBe("second answer");
    // The follow-up continued the conversation: the model saw the first exchange.
    const seen = model.requests[1]?.messages.flatMap((m) =>
      m.role === "tool_result" ? [] : m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])),
    );
    expect(seen).toEqual(["question one", "first answer", "question two"]);

    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(request(userMessage("stream it", contextId))))
      events.push(event);
    const cases = events.map((event) => event.payload?.$case);
    expect(cases[0]).toBe("task");
    expect(cases).toContain("artifactUpdate");
    const last = events.at(-1)?.payload;
    expect(last?.$case === "statusUpdate" && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const streamedId = events[0]?.payload?.$case === "task" ? events[0].payload.value.id : "";

    const got = await client.getTask({ tenant: "", id: streamedId, historyLength: undefined });
    expect(artifactText(got)).toBe("streamed answer");
    const listed = await client.listTasks({
      tenant: "",
      contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: "",
      statusTimestampAfter: undefined,
    });
    expect(listed.tasks.map((task) => task.id).sort()).toEqual(
      ["id" in first ? first.id : "", "id" in second ? second.id : "", streamedId].sort(),
    );
  });

  it("cancels a working task: CancelTask stops the agent's model call promptly", async () => {
    const model = scriptedModel([{ text: "never seen", delayMs: 10_000 }]);
    const server = await serveScripted(model);
    servers.push(server);
    const client = await sdkClient(server.agentUrl("explore"), SERVE_TOKEN);
    const started = await client.sendMessage(request(userMessage("a long task", randomUUID()), true));
    const id = "id" in started ? started.id : "";
    await waitFor(() => model.requests.length > 0, 5_000, "the agent's model call");
    await client.cancelTask({ tenant: "", id, metadata: undefined });
    // Not stopped, the model would answer and the task end COMPLETED.
    let state = TaskState.TASK_STATE_WORKING;
    await waitFor(
      async () => {
        state = (await client.getTask({ tenant: "", id, historyLength: 0 })).status?.state ?? state;
        return state === TaskState.TASK_STATE_CANCELED;
      },
      5_000,
      "the task to be CANCELED",
    );
  });

  it("runs at most maxConcurrent tasks at once; one waiting for its turn is WORKING and can be cancelled", async () => {
    const model = scriptedModel([{ text: "slow", delayMs: 10_000 }]);
    const server = await serveScripted(model, { maxConcurrent: 1 });
    servers.push(server);
    const client = await sdkClient(server.agentUrl("explore"), SERVE_TOKEN);
    const first = await client.sendMessage(request(userMessage("first", randomUUID()), true));
    while (model.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await client.sendMessage(request(userMessage("second", randomUUID()), true));
    const secondId = "id" in second ? second.id : "";
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(model.requests).toHaveLength(1);
    expect((await client.getTask({ tenant: "", id: secondId, historyLength: 0 })).status?.state).toBe(
      TaskState.TASK_STATE_WORKING,
    );

    await client.cancelTask({ tenant: "", id: secondId, metadata: undefined });
    await client.cancelTask({ tenant: "", id: "id" in first ? first.id : "", metadata: undefined });
    await waitFor(
      async () =>
        (await client.getTask({ tenant: "", id: secondId, historyLength: 0 })).status?.state ===
        TaskState.TASK_STATE_CANCELED,
      5_000,
      "the waiting task to be CANCELED",
    );
    expect(model.requests).toHaveLength(1);
  });

  it("records each task in the workspace's TaskStore, with the agent's URL and the remote ids", async () => {
    const model = scriptedModel([{ text: "recorded" }]);
    const server = await serveScripted(model, { record: true });
    servers.push(server);
    const client = await sdkClient(server.agentUrl("explore"), SERVE_TOKEN);
    const contextId = randomUUID();
    const task = await client.sendMessage(request(userMessage("record me", contextId)));
    const id = "id" in task ? task.id : "";

    const [record] = await taskStore(server.workspace).list();
    expect(record).toMatchObject({
      taskId: id,
      agentType: "explore",
      status: "COMPLETED",
      result: "recorded",
      description: "record me",
      ref: { kind: "a2a", url: server.agentUrl("explore"), contextId, taskId: id },
    });
  });

  it("refuses a request without the token, or with another, with 401, and runs nothing", async () => {
    const model = scriptedModel([{ text: "never" }]);
    const server = await serveScripted(model);
    servers.push(server);
    const url = server.agentUrl("explore");
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} });
    for (const authorization of [undefined, "Bearer wrong-token", `Basic ${SERVE_TOKEN}`]) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (authorization !== undefined) headers.authorization = authorization;
      const post = await fetch(url, { method: "POST", headers, body });
      expect(post.status).toBe(401);
      expect(post.headers.get("www-authenticate")).toBe("Bearer");
      for (const card of [`${url}.well-known/agent-card.json`, `${server.url}/.well-known/agent-card.json`])
        expect((await fetch(card, { headers })).status).toBe(401);
    }
    await expect(sdkClient(url, "wrong-token")).rejects.toThrow();
    expect(model.requests).toEqual([]);
  });
});
