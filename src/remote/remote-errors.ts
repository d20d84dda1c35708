import { AgentryError } from "../errors/agentry-error.ts";
import { errorMessage } from "../text/error-message.ts";

/**
 * A remote agent could not be used: unreachable, refused the credentials, failed, answered with
 * something that is not A2A, or stayed silent. The message names the agent's URL and says what to
 * do; it becomes the child's error, never the parent's crash.
 */
export class RemoteAgentError extends AgentryError {
  override readonly name = "RemoteAgentError";
  readonly kind: "user" | "system";

  constructor(message: string, kind: "user" | "system" = "system", options?: ErrorOptions) {
    super(message, options);
    this.kind = kind;
  }
}

/** An HTTP answer that is not a success and carries no A2A error: its status and the start of its body. */
export class RemoteHttpError extends RemoteAgentError {
  readonly status: number;

  constructor(url: string, status: number, statusText: string, body: string) {
    const auth = status === 401 || status === 403;
    const snippet = body.trim().replace(/\s+/g, " ").slice(0, 200);
    const what = auth
      ? `refused the request (HTTP ${status}${statusText ? ` ${statusText}` : ""}): check the credentials its definition sends in headers (a \${VARIABLE} there must be set in the environment)`
      : `answered HTTP ${status}${statusText ? ` ${statusText}` : ""}${snippet ? `: ${snippet}` : ""}`;
    super(`the remote agent at ${url} ${what}`, auth ? "user" : "system");
    this.status = status;
  }
}

/**
 * What went wrong talking to the agent at `url`, in words a parent model and a person can act on.
 * Errors of this module keep their message; a network failure, an A2A error the agent sent or a
 * payload the SDK could not read are worded here.
 */
export function describeRemoteFailure(url: string, error: unknown): string {
  if (error instanceof RemoteAgentError) return error.message;
  const message = errorMessage(error);
  const code = networkCode(error);
  if (code === "ECONNREFUSED")
    return `cannot reach the remote agent at ${url}: connection refused (is it running?)`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return `cannot reach the remote agent at ${url}: its host name does not resolve`;
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET" || code === "EPIPE")
    return `the connection to the remote agent at ${url} was cut (${code})`;
  if (code !== undefined) return `cannot reach the remote agent at ${url}: ${code}`;
  if (
    error instanceof SyntaxError ||
    /parse|Invalid response|missing|Unexpected token|not valid JSON/i.test(message)
  )
    return `the remote agent at ${url} sent an answer that is not valid A2A: ${message}`;
  if (isA2aError(error)) return `the remote agent at ${url} answered with an error: ${message}`;
  return `the remote agent at ${url} failed: ${message}`;
}

/** The system error code of a failed fetch (`TypeError("fetch failed", { cause: { code } })`). */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The SDK's errors for A2A error responses (TaskNotFoundError, a JSON-RPC error …). */
function isA2aError(error: unknown): boolean {
  for (let proto = Object.getPrototypeOf(error); proto !== null; proto = Object.getPrototypeOf(proto))
    if (proto?.constructor?.name === "A2AError") return true;
  return false;
}
