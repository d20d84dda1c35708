import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/**
 * `fetch` for the providers' API calls, on `node:http` instead of Node's built-in fetch (undici). The
 * built-in one compiles its wasm HTTP parser and loads its own connection machinery on the first
 * request: ~11 MB of peak RSS and ~25 ms of the first call (bench/economy.ts), for requests that
 * `node:http`, already loaded, makes with its native parser. It speaks what the AI SDK asks of fetch
 * (a URL, a method, headers, a string or byte body, an abort signal) and fails the way undici does — a
 * request that cannot be made rejects with `TypeError("fetch failed", { cause })`, a body cut off
 * errors with `TypeError("terminated", { cause })`, an abort rejects with the signal's reason — so the
 * SDK's and `describeError`'s classification of retryable failures is unchanged. Anything else (a
 * `Request` object, a stream or form body, a proxy configured in the environment) goes to the built-in
 * fetch, which handles it.
 */
export const httpFetch: typeof globalThis.fetch = (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : undefined;
  const body = init?.body;
  if (url === undefined || !isPlainBody(body) || proxyConfigured(process.env) || !/^https?:/i.test(url))
    return globalThis.fetch(input, init);
  return send(new URL(url), init ?? {}, body);
};

const agents = {
  http: new HttpAgent({ keepAlive: true }),
  https: new HttpsAgent({ keepAlive: true }),
};

type PlainBody = string | Uint8Array | ArrayBuffer | null | undefined;

function isPlainBody(body: unknown): body is PlainBody {
  return (
    body === undefined ||
    body === null ||
    typeof body === "string" ||
    body instanceof Uint8Array ||
    body instanceof ArrayBuffer
  );
}

/** Node's fetch goes through a proxy when told to (NODE_USE_ENV_PROXY with HTTP(S)_PROXY): leave it that. */
export function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NODE_USE_ENV_PROXY"].some(
    (name) => (env[name] ?? "") !== "",
  );
}

function send(url: URL, init: RequestInit, body: PlainBody): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers: Record<string, string> = {};
  for (const [name, value] of new Headers(init.headers)) headers[name] = value;
  const bytes = body === undefined || body === null ? undefined : toBuffer(body);
  if (bytes !== undefined) headers["content-length"] = String(bytes.byteLength);
  const secure = url.protocol === "https:";
  return new Promise<Response>((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(url, {
      method: init.method ?? "GET",
      headers,
      agent: secure ? agents.https : agents.http,
    });
    let answered = false;
    const onAbort = () => request.destroy(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      if (answered) return; // the body's stream reports it
      reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: error }));
    });
    request.once("response", (response) => {
      answered = true;
      response.once("close", () => signal?.removeEventListener("abort", onAbort));
      resolve(toResponse(response, signal));
    });
    request.end(bytes);
  });
}

function toBuffer(body: string | Uint8Array | ArrayBuffer): Buffer {
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

const NO_BODY = new Set([101, 103, 204, 205, 304]);

function toResponse(response: IncomingMessage, signal: AbortSignal | undefined): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < response.rawHeaders.length; i += 2)
    headers.append(response.rawHeaders[i] as string, response.rawHeaders[i + 1] as string);
  const status = response.statusCode ?? 0;
  const init = { status, statusText: response.statusMessage ?? "", headers };
  if (NO_BODY.has(status)) {
    response.resume();
    return new Response(null, init);
  }
  return new Response(bodyStream(response, signal), init);
}

/** The body as a web stream, decoded as fetch would; a cut or an abort errors it as undici does. */
function bodyStream(response: IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  const decoded = decode(response);
  const cut = (cause: unknown) => (signal?.aborted ? signal.reason : new TypeError("terminated", { cause }));
  let failure: unknown;
  response.once("aborted", () => {
    failure = cut(new Error("the connection closed before the body ended"));
  });
  response.on("error", (error) => {
    failure ??= cut(error);
  });
  const source = Readable.toWeb(decoded) as ReadableStream<Uint8Array>;
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (failure !== undefined) controller.error(failure);
        else if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(failure ?? cut(error));
      }
    },
    cancel(reason) {
      response.destroy();
      return reader.cancel(reason);
    },
  });
}

/** fetch decodes `content-encoding`; the request asks for none, but a server may send it anyway. */
function decode(response: IncomingMessage): Readable {
  const encoding = (response.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "br"
        ? createBrotliDecompress()
        : encoding === "deflate"
          ? createInflate()
          : undefined;
  if (decoder === undefined) return response;
  response.once("error", (error) => decoder.destroy(error));
  return response.pipe(decoder);
}
