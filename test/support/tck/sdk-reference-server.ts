// The official SDK's own A2A server, the reference the TCK's results of `agentry serve` are compared
// with: `DefaultRequestHandler`, `InMemoryTaskStore` and `JsonRpcTransportHandler` on node:http as the
// SDK's express app mounts them (JSON-RPC at the root, the card at /.well-known/agent-card.json,
// serialized as the SDK's `agentCardHandler` does), with an agent that answers every message at once.
//   node test/support/tck/sdk-reference-server.ts  → prints its URL, serves until SIGTERM
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgentCard, TaskState } from "@a2a-js/sdk";
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

class EchoExecutor implements AgentExecutor {
  cancelTask = async (): Promise<void> => {};
  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage } = context;
    bus.publish(
      AgentEvent.task(
        context.task ?? {
          id: taskId,
          contextId,
          status: {
            state: TaskState.TASK_STATE_SUBMITTED,
            message: undefined,
            timestamp: new Date().toISOString(),
          },
          artifacts: [],
          history: [userMessage],
          metadata: undefined,
        },
      ),
    );
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: "answer",
          description: "",
          parts: [
            {
              content: { $case: "text", value: "hello" },
              metadata: undefined,
              filename: "",
              mediaType: "text/plain",
            },
          ],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_COMPLETED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        metadata: undefined,
      }),
    );
    bus.finished();
  };
}

export async function startSdkReferenceServer(): Promise<{ url: string; close(): Promise<void> }> {
  let card: AgentCard | undefined;
  let handler: JsonRpcTransportHandler | undefined;
  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: String(error) }));
    });
  });
  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    if (request.method === "GET" && path === "/.well-known/agent-card.json") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(card));
      return;
    }
    if (request.method !== "POST" || path !== "/") {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      body = Buffer.concat(chunks).toString("utf8");
    }
    const version = request.headers["a2a-version"];
    const context = defaultServerCallContextBuilder({
      extensions: undefined,
      user: undefined,
      headers: request.headers,
      requestedVersion: (Array.isArray(version) ? version[0] : version) ?? "1.0",
    });
    const result = await handler!.handle(body as Record<string, unknown>, context);
    if (typeof result === "object" && result !== null && Symbol.asyncIterator in result) {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for await (const event of result as AsyncIterable<unknown>)
        response.write(`data: ${JSON.stringify(event)}\n\n`);
      response.end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(result));
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  card = {
    name: "sdk-reference",
    description: "The official SDK's server with an agent that answers at once",
    supportedInterfaces: [{ url: `${url}/`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
    provider: undefined,
    version: "1.0.0",
    documentationUrl: undefined,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [],
    signatures: [],
    iconUrl: undefined,
  };
  handler = new JsonRpcTransportHandler(
    new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoExecutor()),
  );
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.main) {
  const server = await startSdkReferenceServer();
  process.stdout.write(`${server.url}\n`);
  process.once("SIGTERM", () => void server.close().then(() => process.exit(0)));
}
