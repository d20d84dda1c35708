import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { AgentCard, Message, Task, TaskState } from "a2a-sdk-v0.3";
import {
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  type RequestContext,
} from "a2a-sdk-v0.3/server";
import { type A2aStep, pause, type ReceivedMessage, type SettledStep, stepper } from "./a2a-agent-script.ts";
import { readBody, type TestA2aServer } from "./a2a-server.ts";

/**
 * An agent that speaks only A2A v0.3 (`message/send`, `message/stream`, `tasks/get` …), built from
 * the official SDK as it was at 0.3.14 (the `a2a-sdk-v0.3` dev dependency): a deployed agent that has
 * not moved to 1.0. Same script steps as `startA2aServer`; card at `<url>/.well-known/agent-card.json`.
 */
export async function startA2aServerV03(
  script: readonly A2aStep[],
  options: { streaming?: boolean } = {},
): Promise<TestA2aServer> {
  const messages: ReceivedMessage[] = [];
  const calls: TestA2aServer["calls"] = [];
  const cancelled: string[] = [];
  const cardRequests: TestA2aServer["cardRequests"] = [];
  let handler: JsonRpcTransportHandler | undefined;
  let card: AgentCard | undefined;
  const server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? "/", "http://x").pathname;
      if (request.method === "GET" && path === "/agent/.well-known/agent-card.json") {
        cardRequests.push(request.headers);
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(card));
        return;
      }
      if (request.method !== "POST" || path !== "/agent" || handler === undefined) {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(await readBody(request)) as { method?: string };
      calls.push({ method: String(body.method), headers: request.headers });
      const result = await handler.handle(body);
      if (typeof result === "object" && result !== null && Symbol.asyncIterator in result) {
        response.writeHead(200, { "content-type": "text/event-stream" });
        for await (const event of result) response.write(`data: ${JSON.stringify(event)}\n\n`);
        response.end();
      } else response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
  card = {
    name: "legacy",
    description: "A scripted A2A v0.3 agent for tests",
    url,
    preferredTransport: "JSONRPC",
    protocolVersion: "0.3.0",
    version: "1.0.0",
    capabilities: { streaming: options.streaming ?? true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [],
  };
  const executor = new LegacyExecutor(stepper(script), messages, cancelled);
  handler = new JsonRpcTransportHandler(new DefaultRequestHandler(card, new InMemoryTaskStore(), executor));
  return {
    url,
    messages,
    calls,
    cancelled,
    cardRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

class LegacyExecutor implements AgentExecutor {
  private readonly aborts = new Map<string, AbortController>();
  private readonly next: (message: ReceivedMessage) => SettledStep;
  private readonly messages: ReceivedMessage[];
  private readonly cancelledTasks: string[];

  constructor(
    next: (message: ReceivedMessage) => SettledStep,
    messages: ReceivedMessage[],
    cancelled: string[],
  ) {
    this.next = next;
    this.messages = messages;
    this.cancelledTasks = cancelled;
  }

  cancelTask = async (taskId: string): Promise<void> => {
    this.cancelledTasks.push(taskId);
    this.aborts.get(taskId)?.abort();
  };

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage } = context;
    const text = userMessage.parts.map((part) => (part.kind === "text" ? part.text : "")).join("\n");
    const received = { text, contextId, taskId, continued: context.task !== undefined };
    this.messages.push(received);
    const step = this.next(received);
    if ("message" in step) {
      bus.publish(agentMessage(step.message, contextId));
      bus.finished();
      return;
    }
    const abort = new AbortController();
    this.aborts.set(taskId, abort);
    const task: Task = context.task ?? {
      kind: "task",
      id: taskId,
      contextId,
      status: { state: "submitted", timestamp: new Date().toISOString() },
      history: [userMessage],
    };
    if ("hang" in step) await step.named;
    bus.publish(task);
    const status = (state: TaskState, said?: string) =>
      bus.publish({
        kind: "status-update",
        taskId,
        contextId,
        status: {
          state,
          timestamp: new Date().toISOString(),
          ...(said === undefined ? {} : { message: agentMessage(said, contextId, taskId) }),
        },
        final: state !== "working",
      });
    status("working");
    if ("hang" in step)
      await new Promise<void>((resolve) => abort.signal.addEventListener("abort", () => resolve()));
    else await pause(step.delayMs ?? 0, abort.signal);
    this.aborts.delete(taskId);
    if (abort.signal.aborted) status("canceled", "cancelled");
    else if ("fail" in step) status("failed", step.fail);
    else if ("inputRequired" in step) status("input-required", step.inputRequired);
    else if ("reply" in step && step.in === "status") status("completed", step.reply);
    else if ("reply" in step) {
      bus.publish({
        kind: "artifact-update",
        taskId,
        contextId,
        artifact: { artifactId: randomUUID(), name: "answer", parts: [{ kind: "text", text: step.reply }] },
        lastChunk: true,
      });
      status("completed");
    }
    bus.finished();
  };
}

function agentMessage(text: string, contextId: string, taskId?: string): Message {
  return {
    kind: "message",
    messageId: randomUUID(),
    role: "agent",
    contextId,
    ...(taskId === undefined ? {} : { taskId }),
    parts: [{ kind: "text", text }],
  };
}
