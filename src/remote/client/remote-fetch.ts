import { formatDuration } from "../../text/format-duration.ts";
import { RemoteAgentError, RemoteHttpError } from "../remote-errors.ts";

export interface RemoteFetchOptions {
  /** The agent's URL as its definition names it, for messages. */
  url: string;
  /** Sent with every request (a definition's `headers`, expanded); the SDK's own headers win. */
  headers: Readonly<Record<string, string>>;
  /** How long an answer may take to begin (its status line and headers). */
  timeoutMs: number;
}

/**
 * The `fetch` every request to one remote agent goes through: its headers added, an answer that does
 * not begin within `timeoutMs` abandoned with a clear error, and an HTTP failure that carries no A2A
 * error (401 from a proxy, a 502 page) turned into `RemoteHttpError` — so the SDK only ever sees
 * successes and A2A error bodies. A body that streams on (SSE) is not timed here: the activation
 * watches its events.
 */
export function remoteFetch(options: RemoteFetchOptions): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(options.headers);
    for (const [name, value] of new Headers(init?.headers)) headers.set(name, value);
    const timeout = new AbortController();
    const timer = setTimeout(
      () =>
        timeout.abort(
          new RemoteAgentError(
            `the remote agent at ${options.url} did not answer within ${formatDuration(options.timeoutMs)} (remote.timeoutMs)`,
          ),
        ),
      options.timeoutMs,
    );
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal;
    let response: Response;
    try {
      response = await fetch(input, { ...init, headers, signal });
    } catch (error) {
      if (timeout.signal.aborted && !init?.signal?.aborted) throw timeout.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (response.ok) return response;
    const body = await readWithin(response, options.timeoutMs);
    if (isJsonRpcError(body)) return new Response(body, response);
    throw new RemoteHttpError(options.url, response.status, response.statusText, body);
  };
}

/** The body of a failed answer, or what arrived of it in time (an error page that never ends). */
async function readWithin(response: Response, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(""), timeoutMs);
  });
  try {
    return await Promise.race([response.text().catch(() => ""), late]);
  } finally {
    clearTimeout(timer);
  }
}

function isJsonRpcError(body: string): boolean {
  try {
    const json = JSON.parse(body) as { jsonrpc?: unknown; error?: unknown };
    return json.jsonrpc === "2.0" && typeof json.error === "object" && json.error !== null;
  } catch {
    return false;
  }
}
