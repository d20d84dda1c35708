import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgentCard, type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  type ExecutionEventBus,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { type A2aStep, pause, type ReceivedMessage, type SettledStep, stepper } from "./a2a-agent-script.ts";

/**
 * An A2A v1.0 agent for tests, built from the official SDK's server classes (`DefaultRequestHandler`,
 * `InMemoryTaskStore`, `JsonRpcTransportHandler`) behind a small node:http front: the agent card at
 * `<url>/.well-known/agent-card.json`, JSON-RPC at `<url>` (with SSE for the streaming methods). Its
 * agent answers each message with the next step of `script`.
 */
export interface TestA2aServer {
  /** The agent's base URL (what an agent file's `url` names). */
  url: string;
  /** Every message the agent received, in order. */
  messages: ReceivedMessage[];
  /** Every JSON-RPC call: its method and headers. */
  calls: Array<{ method: string; headers: IncomingMessage["headers"] }>;
  /** Tasks cancelled through CancelTask. */
  cancelled: string[];
  /** Every GET of the agent card: its headers, answered or failed. */
  cardRequests: Array<IncomingMessage["headers"]>;
  close(): Promise<void>;
}

export interface TestA2aServerOptions {
  /** Whether the card says it streams (default true). */
  streaming?: boolean;
  /** Requests without `Authorization: Bearer <token>` get 401. */
  token?: string;
  name?: string;
  description?: string;
  /** The first `cardFailures` card requests get HTTP 503, as from an agent that is starting (default 0). */
  cardFailures?: number;
}

export async function startA2aServer(
  script: readonly A2aStep[],
  options: TestA2aServerOptions = {},
): Promise<TestA2aServer> {
  const messages: ReceivedMessage[] = [];
  const calls: TestA2aServer["calls"] = [];
  const cancelled: string[] = [];
  const cardRequests: TestA2aServer["cardRequests"] = [];
  const executor = new ScriptedExecutor(stepper(script), messages, cancelled);
  let card: AgentCard | undefined;
  const handlers = new Map<string, JsonRpcTransportHandler>();
  const server = createServer((request, response) => {
    void serve(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: String(error) }));
    });
  });
  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    if (request.method === "GET" && path === "/agent/.well-known/agent-card.json") {
      cardRequests.push(request.headers);
      if (cardRequests.length <= (options.cardFailures ?? 0)) {
        response.writeHead(503, { "content-type": "text/plain" }).end("starting up");
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(card));
      return;
    }
    if (request.method !== "POST" || path !== "/agent") {
      response.writeHead(404).end();
      return;
    }
    if (options.token !== undefined && request.headers.authorization !== `Bearer ${options.token}`) {
      response.writeHead(401, { "content-type": "application/json", "www-authenticate": "Bearer" });
      response.end(JSON.stringify({ error: "unauthorized" }));
      return;
    }
    const body = JSON.parse(await readBody(request)) as { method?: string };
    calls.push({ method: String(body.method), headers: request.headers });
    const context = defaultServerCallContextBuilder({
      extensions: undefined,
      user: undefined,
      headers: request.headers,
      requestedVersion: headerValue(request.headers["a2a-version"]) ?? "1.0",
    });
    const handler = handlers.get("v1");
    if (handler === undefined) throw new Error("not ready");
    const result = await handler.handle(body, context);
    if (isAsyncIterable(result)) {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for await (const event of result) response.write(`data: ${JSON.stringify(event)}\n\n`);
      response.end();
    } else {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(result));
    }
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
  card = {
    name: options.name ?? "scripted",
    description: options.description ?? "A scripted A2A agent for tests",
    supportedInterfaces: [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: options.streaming ?? true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [],
    signatures: [],
  };
  handlers.set(
    "v1",
    new JsonRpcTransportHandler(new DefaultRequestHandler(card, new InMemoryTaskStore(), executor)),
  );
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

class ScriptedExecutor implements AgentExecutor {
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
    const received: ReceivedMessage = {
      text: textOf(userMessage),
      contextId,
      taskId,
      continued: context.task !== undefined,
    };
    this.messages.push(received);
    const step = this.next(received);
    if ("message" in step) {
      bus.publish(AgentEvent.message(agentMessage(step.message, contextId)));
      bus.finished();
      return;
    }
    const abort = new AbortController();
    this.aborts.set(taskId, abort);
    const task: Task = context.task ?? {
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
      artifacts: [],
      history: [userMessage],
      metadata: undefined,
    };
    if ("hang" in step) await step.named;
    bus.publish(AgentEvent.task(task));
    const status = (state: TaskState, text?: string) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            message: text === undefined ? undefined : agentMessage(text, contextId, taskId),
            timestamp: now(),
          },
          metadata: undefined,
        }),
      );
    status(TaskState.TASK_STATE_WORKING);
    if ("hang" in step)
      await new Promise<void>((resolve) => abort.signal.addEventListener("abort", () => resolve()));
    else await pause(step.delayMs ?? 0, abort.signal);
    this.aborts.delete(taskId);
    if (abort.signal.aborted) status(TaskState.TASK_STATE_CANCELED, "cancelled");
    else if ("fail" in step) status(TaskState.TASK_STATE_FAILED, step.fail);
    else if ("inputRequired" in step) status(TaskState.TASK_STATE_INPUT_REQUIRED, step.inputRequired);
    else if ("reply" in step && step.in === "status") status(TaskState.TASK_STATE_COMPLETED, step.reply);
    else if ("reply" in step) {
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId: randomUUID(),
            name: "answer",
            description: "",
            parts: [textPart(step.reply)],
            metadata: undefined,
            extensions: [],
          },
          append: false,
          lastChunk: true,
          metadata: undefined,
        }),
      );
      status(TaskState.TASK_STATE_COMPLETED);
    }
    bus.finished();
  };
}

function agentMessage(text: string, contextId: string, taskId = ""): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function textPart(text: string): Message["parts"][number] {
  return {
    content: { $case: "text", value: text },
    metadata: undefined,
    filename: "",
    mediaType: "text/plain",
  };
}

function textOf(message: Message): string {
  return message.parts
    .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
    .filter((text) => text !== "")
    .join("\n");
}

const now = () => new Date().toISOString();

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}
