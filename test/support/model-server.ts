import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { AnthropicPromptCache, type PromptCacheOptions } from "./anthropic-prompt-cache.ts";
import {
  anthropicErrorBody,
  anthropicMessageBody,
  anthropicStreamErrorEvent,
  anthropicStreamEvents,
} from "./anthropic-sse.ts";
import { type CapacityFault, CapacityGate, type CapacityStats } from "./capacity-fault.ts";
import {
  openaiChatStreamErrorEvent,
  openaiChatStreamEvents,
  openaiCompletionBody,
} from "./openai-chat-sse.ts";
import { openaiErrorBody } from "./openai-errors.ts";
import { responsesInputError } from "./openai-responses-input.ts";
import {
  type ResponsesReplyContext,
  responsesBody,
  responsesStreamErrorEvents,
  responsesStreamEvents,
} from "./openai-responses-sse.ts";
import { type ServerReply, serverReplySchema, toolCallArguments } from "./server-reply.ts";
import { encodeSse, type SseEvent } from "./sse.ts";
import { toolPairingProblem } from "./tool-pairing.ts";

export type { ServerReply, ServerToolCall } from "./server-reply.ts";

/**
 * The wire protocol of a request: `anthropic` (Messages API), `openai` (the Responses API, what `openai:`
 * models speak) or `openai-chat` (Chat Completions: `openai-compatible:`, `ollama:`, and `openai:` with
 * `providers.openai.api = "chat"`).
 */
export type Protocol = "anthropic" | "openai" | "openai-chat";

/** One request as the server received it. */
export interface RecordedRequest {
  protocol: Protocol;
  /** The request target, query string included. */
  path: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The parsed JSON body (`{}` when it was not a JSON object; see `rawBody`). */
  body: Record<string, unknown>;
  rawBody: string;
  /** `performance.now()` when the request arrived and when its response ended or its socket closed. */
  startedAt: number;
  finishedAt?: number;
  /** The status code the server answered with, once its response has ended. */
  status?: number;
}

export interface ModelServerOptions {
  /** Called when a request has been recorded (body parsed) and again when its response has ended. */
  onRecord?: (request: RecordedRequest) => void;
  /** A provider's limits (requests in flight, a rate window): beyond them, 429 with retry-after. */
  capacity?: CapacityFault;
  /**
   * Answer 400, as the real APIs do, when a tool call is not answered right after it or a tool result
   * answers no call (default true). The rejected request consumes no script step.
   */
  checkToolPairing?: boolean;
  /**
   * Anthropic's prompt cache (`anthropic-prompt-cache.ts`): Messages API replies report the input,
   * cache-read and cache-write tokens the request's `cache_control` breakpoints would give, instead of
   * the scripted ones, and output tokens estimated from the reply unless scripted.
   */
  promptCache?: PromptCacheOptions;
}

export type ServerStep =
  | ServerReply
  | ((request: RecordedRequest, call: number) => ServerReply | Promise<ServerReply>);

export interface ModelServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The host without `/v1`: what ANTHROPIC_BASE_URL means. */
  anthropicBaseUrl: string;
  /** `url` + "/v1": what OPENAI_BASE_URL means. */
  openaiBaseUrl: string;
  /** Every request to a model endpoint, in arrival order (including ones answered with an error). */
  requests: RecordedRequest[];
  /** What the `capacity` fault did (refusals, the most requests at once); undefined without one. */
  capacity: CapacityStats | undefined;
  /** Stops listening and destroys open sockets, so hanging or streaming replies cannot hold it open. */
  close(): Promise<void>;
}

const routes: Record<string, Protocol> = {
  "/v1/messages": "anthropic",
  "/v1/responses": "openai",
  "/v1/chat/completions": "openai-chat",
};

/**
 * A local model server that speaks the Anthropic Messages API, OpenAI's Responses API and OpenAI Chat
 * Completions with real SSE. A list script is consumed in order across all protocols; a single step
 * answers every request.
 */
export async function startModelServer(
  script: ServerStep[] | ServerStep,
  options: ModelServerOptions = {},
): Promise<ModelServer> {
  for (const [position, step] of (Array.isArray(script) ? script : [script]).entries()) {
    if (typeof step === "function") continue;
    const parsed = serverReplySchema.safeParse(step);
    if (!parsed.success)
      throw new Error(`model-server: invalid script step #${position + 1}: ${z.prettifyError(parsed.error)}`);
  }
  const requests: RecordedRequest[] = [];
  const gate = options.capacity === undefined ? undefined : new CapacityGate(options.capacity);
  const cache = options.promptCache === undefined ? undefined : new AnthropicPromptCache(options.promptCache);
  const closing = new AbortController();
  let calls = 0;

  const server = createServer((req, res) => {
    const handle = async () => {
      const target = req.url ?? "/";
      const protocol = routes[new URL(target, "http://localhost").pathname];
      if (req.method !== "POST" || protocol === undefined) {
        req.resume();
        sendJson(res, 404, { error: `model-server: no route for ${req.method} ${target}` }, {});
        return;
      }
      const record: RecordedRequest = {
        protocol,
        path: target,
        headers: flattenHeaders(req.headers),
        body: {},
        rawBody: "",
        startedAt: performance.now(),
      };
      requests.push(record);
      res.once("close", () => {
        record.finishedAt = performance.now();
        record.status = res.statusCode;
        options.onRecord?.(record);
      });
      record.rawBody = await readBody(req);
      const body = parseJsonObject(record.rawBody);
      if (body === undefined) {
        sendError(res, protocol, 400, "model-server: the request body is not a JSON object", {});
        return;
      }
      record.body = body;
      options.onRecord?.(record);
      // Refused as OpenAI would, before any scripted step is used.
      const refused = protocol === "openai" ? responsesInputError(body) : undefined;
      if (refused) {
        sendError(res, protocol, refused.status, refused.message, protocolHeaders(protocol, calls));
        return;
      }
      const unpaired = options.checkToolPairing === false ? undefined : toolPairingProblem(protocol, body);
      if (unpaired !== undefined) {
        sendError(res, protocol, 400, unpaired, {});
        return;
      }
      const admission = gate?.admit(protocol);
      if (admission?.admitted === false) {
        sendError(res, protocol, 429, admission.message, admission.headers);
        return;
      }
      if (admission) {
        // Done once the answer is handed to the socket: before the client can send its next request.
        res.once("finish", admission.done);
        res.once("close", admission.done);
      }
      // Looked up on arrival, written once answered: requests in flight together share no write.
      const account = protocol === "anthropic" ? cache?.account(body) : undefined;
      const call = calls++;
      const scripted = await replyFor(script, record, call);
      if (typeof scripted === "string") {
        sendError(res, protocol, 500, scripted, {});
        return;
      }
      let reply = scripted;
      if (cache && account && reply.status === undefined) {
        reply = { ...reply, usage: { output: estimatedOutput(reply), ...reply.usage, ...account.usage } };
        res.once("finish", () => cache.commit(account));
      }
      const withWindow = admission
        ? { ...reply, headers: { ...admission.headers, ...reply.headers } }
        : reply;
      await answer(res, protocol, record.body, withWindow, call, closing.signal);
    };
    handle().catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { error: `model-server: ${String(error)}` }, {});
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;
  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    requests,
    capacity: gate?.stats,
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** Output tokens by the prompt cache's estimate: the reply's text and tool calls, characters ÷ 4. */
function estimatedOutput(reply: ServerReply): number {
  const calls = (reply.toolCalls ?? []).map((call) => call.name + toolCallArguments(call));
  return Math.ceil(((reply.text ?? "") + (reply.reasoning ?? "") + calls.join("")).length / 4);
}

/** The validated reply for one call, or the message of the 500 that replaces it. */
async function replyFor(
  script: ServerStep[] | ServerStep,
  request: RecordedRequest,
  call: number,
): Promise<ServerReply | string> {
  const step = Array.isArray(script) ? script[call] : script;
  if (step === undefined)
    return `model-server: script exhausted: request #${call + 1} has no scripted reply (the script has ${(script as ServerStep[]).length} steps)`;
  let reply: unknown;
  try {
    reply = typeof step === "function" ? await step(request, call) : step;
  } catch (error) {
    return `model-server: script step #${call + 1} threw: ${error instanceof Error ? error.message : String(error)}`;
  }
  const parsed = serverReplySchema.safeParse(reply);
  if (!parsed.success)
    return `model-server: invalid reply from script step #${call + 1}: ${z.prettifyError(parsed.error)}`;
  return parsed.data;
}

async function answer(
  res: ServerResponse,
  protocol: Protocol,
  body: Record<string, unknown>,
  reply: ServerReply,
  call: number,
  closing: AbortSignal,
): Promise<void> {
  const gone = new AbortController();
  res.once("close", () => gone.abort());
  const signal = AbortSignal.any([gone.signal, closing]);
  if (reply.delayMs && !(await pause(reply.delayMs, signal))) return;
  // A hanging reply keeps the socket open until the client aborts or close() destroys it.
  if (reply.hang) return;
  const headers = { ...protocolHeaders(protocol, call), ...reply.headers };
  if (reply.status !== undefined) {
    sendError(res, protocol, reply.status, reply.errorMessage, headers);
    return;
  }
  const model = typeof body.model === "string" ? body.model : "test-model";
  if (body.stream !== true) {
    if (reply.cutAfterEvents !== undefined) {
      res.destroy();
      return;
    }
    sendJson(res, 200, replyBody(protocol, body, reply, model, call), headers);
    return;
  }
  const events = streamEvents(protocol, body, reply, model, call);
  if (reply.streamErrorAfterEvents !== undefined) {
    const at = Math.min(reply.streamErrorAfterEvents, events.length);
    events.splice(at, events.length, ...streamErrorEvents(protocol, body, reply, call, at));
  }
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    ...headers,
  });
  res.flushHeaders();
  for (const [index, event] of events.entries()) {
    if (index === reply.cutAfterEvents) break;
    if (index === reply.hangAfterEvents) {
      await untilAborted(signal);
      return;
    }
    if (index > 0 && reply.chunkDelayMs && !(await pause(reply.chunkDelayMs, signal))) return;
    if (res.destroyed) return;
    await write(res, encodeSse(event));
  }
  // A cut stream never sends the final empty chunk, so the client sees the connection drop.
  if (reply.cutAfterEvents !== undefined) res.destroy();
  else res.end();
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

function replyBody(
  protocol: Protocol,
  body: Record<string, unknown>,
  reply: ServerReply,
  model: string,
  call: number,
): unknown {
  if (protocol === "anthropic") return anthropicMessageBody(reply, { model, call });
  if (protocol === "openai") return responsesBody(reply, responsesContext(body, call));
  return openaiCompletionBody(reply, { model, call });
}

function streamEvents(
  protocol: Protocol,
  body: Record<string, unknown>,
  reply: ServerReply,
  model: string,
  call: number,
): SseEvent[] {
  if (protocol === "anthropic") return anthropicStreamEvents(reply, { model, call });
  if (protocol === "openai") return responsesStreamEvents(reply, responsesContext(body, call));
  const options = body.stream_options;
  const includeUsage =
    typeof options === "object" &&
    options !== null &&
    "include_usage" in options &&
    options.include_usage === true;
  return openaiChatStreamEvents(reply, { model, call, includeUsage });
}

/** What a protocol sends when it fails mid-stream, after `sent` events. */
function streamErrorEvents(
  protocol: Protocol,
  body: Record<string, unknown>,
  reply: ServerReply,
  call: number,
  sent: number,
): SseEvent[] {
  if (protocol === "anthropic") return [anthropicStreamErrorEvent(reply.errorMessage)];
  if (protocol === "openai")
    return responsesStreamErrorEvents(responsesContext(body, call), sent, reply.errorMessage);
  return [openaiChatStreamErrorEvent(reply.errorMessage)];
}

function responsesContext(body: Record<string, unknown>, call: number): ResponsesReplyContext {
  return { call, request: body };
}

function protocolHeaders(protocol: Protocol, call: number): Record<string, string> {
  return protocol === "anthropic"
    ? { "request-id": `req_test_${call}` }
    : { "x-request-id": `req_test_${call}` };
}

function sendError(
  res: ServerResponse,
  protocol: Protocol,
  status: number,
  message: string | undefined,
  headers: Record<string, string>,
): void {
  const body =
    protocol === "anthropic" ? anthropicErrorBody(status, message) : openaiErrorBody(status, message);
  sendJson(res, status, body, headers);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Resolves false when the wait was cut short by the client leaving or the server closing. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

function write(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => res.write(chunk, () => resolve()));
}

async function readBody(req: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return z.record(z.string(), z.unknown()).safeParse(value).data;
  } catch {
    return undefined;
  }
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}
