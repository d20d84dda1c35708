import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, expect, test, vi } from "vitest";
import { httpFetch, proxyConfigured } from "../../../src/model/providers/http-fetch.ts";
import { scaled } from "../../support/time-scale.ts";

// httpFetch is what the providers' API calls go through (the AI SDK's `fetch`): these tests hold it to
// what the SDK and describeError expect of fetch, against real local servers.

const servers: Server[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/messages`;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

test("sends the method, headers and body, and answers with status, headers and body", async () => {
  let seen: { method?: string | undefined; headers?: IncomingMessage["headers"]; body?: string } = {};
  const url = await serve(async (request, response) => {
    seen = { method: request.method, headers: request.headers, body: await bodyOf(request) };
    response.writeHead(201, "Made", { "content-type": "application/json", "x-request-id": "r-1" });
    response.end('{"ok":true}');
  });
  const body = JSON.stringify({ model: "m", text: "héllo" });
  const response = await httpFetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "x-api-key": "k" },
    body,
  });
  expect(seen.method).toBe("POST");
  expect(seen.headers).toMatchObject({
    "content-type": "application/json",
    "x-api-key": "k",
    "content-length": String(Buffer.byteLength(body)),
  });
  expect(seen.body).toBe(body);
  expect(response.status).toBe(201);
  expect(response.statusText).toBe("Made");
  expect(response.headers.get("x-request-id")).toBe("r-1");
  expect(await response.json()).toEqual({ ok: true });
});

test("a server out of reach rejects as fetch does: TypeError('fetch failed') with the cause's code", async () => {
  const url = await serve(() => {});
  const port = new URL(url).port;
  for (const server of servers.splice(0)) server.close();
  const failure = await httpFetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" }).catch(
    (e) => e,
  );
  expect(failure).toBeInstanceOf(TypeError);
  expect(failure.message).toBe("fetch failed");
  expect(failure.cause.code).toBe("ECONNREFUSED");
});

test("a body cut off mid-stream errors the reader as fetch does: TypeError('terminated')", async () => {
  const url = await serve((_request, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write("data: one\n\n");
    setTimeout(() => response.socket?.destroy(), 20);
  });
  const response = await httpFetch(url, { method: "POST", body: "{}" });
  const reader = response.body!.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
  const failure = await reader.read().catch((e) => e);
  expect(failure).toBeInstanceOf(TypeError);
  expect(failure.message).toBe("terminated");
});

test("an abort rejects with the signal's reason, before the answer and while the body streams", async () => {
  let closed = 0;
  let arrived = () => {};
  const firstArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const url = await serve((request, response) => {
    request.socket.once("close", () => closed++);
    arrived();
    if (request.url?.endsWith("/slow-body")) {
      response.writeHead(200);
      response.write("part");
    } // otherwise never answers
  });
  const early = new AbortController();
  const pending = httpFetch(url, { method: "POST", body: "{}", signal: early.signal });
  // Aborted once the server has it, so both requests' connections are there to be closed.
  await firstArrived;
  early.abort(new Error("stop early"));
  await expect(pending).rejects.toThrow("stop early");

  const late = new AbortController();
  const response = await httpFetch(`${url}/slow-body`, { method: "POST", body: "{}", signal: late.signal });
  const reader = response.body!.getReader();
  await reader.read();
  late.abort(new Error("stop late"));
  await expect(reader.read()).rejects.toThrow("stop late");
  await vi.waitFor(() => expect(closed).toBe(2), scaled(5_000));
});

test("an already aborted signal sends nothing", async () => {
  let requests = 0;
  const url = await serve((_request, response) => {
    requests++;
    response.end();
  });
  const reason = new Error("aborted before");
  await expect(
    httpFetch(url, { method: "POST", body: "{}", signal: AbortSignal.abort(reason) }),
  ).rejects.toBe(reason);
  expect(requests).toBe(0);
});

test("decodes a gzip body a server sends unasked, and gives a 204 no body", async () => {
  const url = await serve((request, response) => {
    if (request.url?.endsWith("/empty")) {
      response.writeHead(204);
      response.end();
      return;
    }
    response.writeHead(200, { "content-encoding": "gzip" });
    response.end(gzipSync("squeezed text"));
  });
  expect(await (await httpFetch(url)).text()).toBe("squeezed text");
  const empty = await httpFetch(`${url}/empty`, { method: "DELETE" });
  expect(empty.status).toBe(204);
  expect(empty.body).toBeNull();
});

test("calls reuse one kept-alive connection", async () => {
  let connections = 0;
  const url = await serve((_request, response) => response.end("ok"));
  servers[0]!.on("connection", () => connections++);
  for (let i = 0; i < 3; i++)
    expect(await (await httpFetch(url, { method: "POST", body: "{}" })).text()).toBe("ok");
  expect(connections).toBe(1);
});

test("a proxy in the environment, a Request or a stream body go to Node's own fetch", async () => {
  expect(proxyConfigured({ HTTPS_PROXY: "http://proxy:3128" })).toBe(true);
  expect(proxyConfigured({ NODE_USE_ENV_PROXY: "1" })).toBe(true);
  expect(proxyConfigured({ HTTPS_PROXY: "" })).toBe(false);
  const url = await serve((_request, response) => response.end("ok"));
  const builtin = vi.spyOn(globalThis, "fetch");
  await (await httpFetch(new Request(url))).text();
  const stream = new ReadableStream({
    start: (controller) => {
      controller.enqueue(new TextEncoder().encode("x"));
      controller.close();
    },
  });
  await (await httpFetch(url, { method: "POST", body: stream, duplex: "half" } as RequestInit)).text();
  expect(builtin).toHaveBeenCalledTimes(2);
  await (await httpFetch(url, { method: "POST", body: "{}" })).text();
  expect(builtin).toHaveBeenCalledTimes(2);
});
