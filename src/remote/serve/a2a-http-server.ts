import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  JsonRpcTransportHandler,
} from "@a2a-js/sdk/server";
import type { TraceRun } from "../../contracts/run-tracer.ts";
import { Semaphore } from "../../subagents/placement.ts";
import { errorMessage } from "../../text/error-message.ts";
import { ServedAgentExecutor } from "./served-agent-executor.ts";
import type { ServedAgents } from "./served-agents.ts";
import { cardJson, rootCard, servedCard } from "./served-card.ts";
import { CARD_PATH, servedAgentUrl, servedPath } from "./served-paths.ts";
import type { ServedRecords } from "./served-records.ts";
import { ServedTaskStore } from "./served-task-store.ts";

/** Served tasks at once when `maxConcurrent` is not given. */
const DEFAULT_MAX_CONCURRENT = 4;

/** A request body larger than this is refused (413): A2A messages are prompts, not uploads. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface ServeA2aOptions {
  agents: ServedAgents;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Every request must carry `Authorization: Bearer <token>` (the cards too, unless `publicCards`). */
  token: string;
  /**
   * The cards answer without the token (A2A's discovery model: the card says how to authenticate,
   * the calls need it). Default false: a card names the workspace's agents and describes them.
   */
  publicCards?: boolean;
  /**
   * The agent whose card is at the root, `/.well-known/agent-card.json` (listing the others):
   * `general-purpose` when it is served, else the first agent.
   */
  defaultAgent?: string;
  /** The workspace's records of served tasks: GetTask and ListTasks answer from them for tasks no longer in memory. */
  records?: ServedRecords;
  /** Per agent: finished tasks kept whole in memory (default 100); older ones come from the records. */
  keptTasks?: number;
  /** Per agent: idle conversations kept open (default 16); the others are taken up again from disk. */
  openConversations?: number;
  /** Tasks that run at once, over every served agent; more wait their turn (default 4). */
  maxConcurrent?: number;
  /** agentry's version, in the cards. */
  version: string;
  /** One line per task and per refused request (never a token). */
  log(line: string): void;
  /** Traces each task under its caller's `traceparent` (tracing on). */
  trace?: TraceRun;
}

export interface A2aServer {
  /** `http://host:port`. */
  url: string;
  /**
   * The URL of one served agent, `<url>/agents/<name>/`: its JSON-RPC endpoint, its card under it.
   * It ends in `/`, so the SDK's `createFromUrl(url)` finds the card as it is.
   */
  agentUrl(name: string): string;
  /** The agent whose card is at `<url>/.well-known/agent-card.json`. */
  defaultAgent: string;
  close(): Promise<void>;
}

/**
 * Serves agents over A2A v1.0 JSON-RPC (with SSE for SendStreamingMessage and SubscribeToTask) on
 * node:http, through the official SDK's request handler: each agent at `/agents/<name>/`, its card at
 * `/agents/<name>/.well-known/agent-card.json`, and the default agent's card at the root. Every
 * request, the cards included (unless `publicCards`), needs the bearer token; without it, or with
 * another, the answer is 401 and nothing runs. Tasks are answered from memory while recent, then from
 * their records; conversations are kept open while recently used, then taken up again from disk.
 */
export async function serveA2a(options: ServeA2aOptions): Promise<A2aServer> {
  const expected = Buffer.from(`Bearer ${options.token}`);
  const endpoints = new Map<string, { handler: JsonRpcTransportHandler; card: unknown }>();
  const names = options.agents.agents.map((agent) => agent.name);
  const defaultAgent =
    options.defaultAgent ?? (names.includes("general-purpose") ? "general-purpose" : (names[0] ?? ""));
  if (!names.includes(defaultAgent))
    throw new Error(`the default agent "${defaultAgent}" is not served (served: ${names.join(", ")})`);
  let root: unknown;
  const executors: ServedAgentExecutor[] = [];
  const slots = new Semaphore(options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
  let base = "";
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.log(`request failed: ${errorMessage(error)}`);
      if (!response.headersSent) sendJson(response, 500, { error: "internal error" });
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = servedPath(pathOf(request));
    const card = path.kind === "root-card" || path.kind === "card";
    const given = Buffer.from(request.headers.authorization ?? "");
    if (
      !(card && options.publicCards === true) &&
      (given.length !== expected.length || !timingSafeEqual(given, expected))
    ) {
      options.log(
        `refused ${request.method} ${pathOf(request)}: ${given.length === 0 ? "no" : "a wrong"} bearer token`,
      );
      response.setHeader("www-authenticate", "Bearer");
      return sendJson(response, 401, { error: "a bearer token is required (Authorization: Bearer <token>)" });
    }
    const agents = names.map((name) => servedAgentUrl(base, name));
    if (card) {
      if (request.method !== "GET") return sendJson(response, 405, { error: "GET the card" });
      if (path.kind === "root-card") return sendJson(response, 200, root);
    }
    if (path.kind === "card-without-agent")
      return sendJson(response, 404, {
        error: `an agent's URL ends with "/": its card is at <agent URL>${CARD_PATH.slice(1)}, the default agent's at ${base}${CARD_PATH}`,
        agents,
      });
    const endpoint = path.kind === "card" || path.kind === "rpc" ? endpoints.get(path.agent) : undefined;
    if (endpoint === undefined) return sendJson(response, 404, { error: "no such agent", agents });
    if (path.kind === "card") return sendJson(response, 200, endpoint.card);
    if (request.method !== "POST") return sendJson(response, 405, { error: "A2A JSON-RPC takes POST" });
    const body = await readBody(request);
    if (body === undefined)
      return sendJson(response, 413, { error: `the request is larger than ${MAX_BODY_BYTES} bytes` });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      return sendJson(response, 200, {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32700, message: "the body is not a JSON-RPC request object" },
      });
    const version = request.headers["a2a-version"];
    const context = defaultServerCallContextBuilder({
      extensions: undefined,
      user: undefined,
      headers: request.headers,
      requestedVersion: (Array.isArray(version) ? version[0] : version) ?? "1.0",
    });
    const result = await endpoint.handler.handle(parsed as Record<string, unknown>, context);
    if (!isAsyncIterable(result)) return sendJson(response, 200, result);
    response.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const closed = new Promise<void>((resolve) => response.once("close", resolve));
    const iterator = result[Symbol.asyncIterator]();
    while (true) {
      const next = await Promise.race([iterator.next(), closed.then(() => undefined)]);
      if (next === undefined || next.done === true) break;
      response.write(`data: ${JSON.stringify(next.value)}\n\n`);
    }
    // The client went away: let the SDK's stream end (the task runs on; GetTask still finds it).
    void iterator.return?.();
    response.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  base = `http://${host}:${address.port}`;
  const links = options.agents.agents.map((agent) => ({ ...agent, url: servedAgentUrl(base, agent.name) }));
  for (const agent of options.agents.agents) {
    const url = servedAgentUrl(base, agent.name);
    const card = servedCard(agent, url, options.version);
    if (agent.name === defaultAgent) root = cardJson(rootCard(card, links));
    const executor = new ServedAgentExecutor({
      agent,
      agents: options.agents,
      url,
      log: options.log,
      slots,
      ...(options.trace === undefined ? {} : { trace: options.trace }),
      ...(options.records === undefined ? {} : { records: options.records }),
      ...(options.openConversations === undefined ? {} : { openConversations: options.openConversations }),
    });
    const tasks = new ServedTaskStore(agent.name, {
      ...(options.records === undefined ? {} : { records: options.records }),
      ...(options.keptTasks === undefined ? {} : { keep: options.keptTasks }),
    });
    executors.push(executor);
    endpoints.set(agent.name, {
      card: cardJson(card),
      handler: new JsonRpcTransportHandler(new DefaultRequestHandler(card, tasks, executor)),
    });
  }
  return {
    url: base,
    agentUrl: (name) => servedAgentUrl(base, name),
    defaultAgent,
    async close() {
      await Promise.all(executors.map((executor) => executor.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function pathOf(request: IncomingMessage): string {
  return new URL(request.url ?? "/", "http://localhost").pathname;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/** The body as text, or undefined past `MAX_BODY_BYTES`. */
function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}
