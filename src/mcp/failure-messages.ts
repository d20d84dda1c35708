import { SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { errorMessage } from "../text/error-message.ts";
import type { McpServerConfig } from "./server-config.ts";
import type { ProcessExit } from "./stdio-process-transport.ts";

/** What went wrong around a connection attempt, beyond the error itself. */
export interface FailureContext {
  config: McpServerConfig;
  /** Set when the attempt ran out of time. */
  timeoutMs?: number;
  /** The caller's signal aborted the attempt. */
  cancelled?: boolean;
  /** For a stdio server: how its process ended, and its last stderr lines. */
  exit?: ProcessExit | undefined;
  stderr?: string[];
}

/** A failure message that says what happened and what to do about it. */
export function describeConnectFailure(error: unknown, context: FailureContext): string {
  const stderr = stderrNote(context.stderr);
  if (context.cancelled) return "cancelled before it finished starting.";
  if (context.timeoutMs !== undefined || isSdkCode(error, SdkErrorCode.RequestTimeout)) {
    const seconds = Math.round((context.timeoutMs ?? 0) / 100) / 10;
    return `did not answer within ${seconds} s, so it was stopped. Check that it is an MCP server and starts quickly when run by hand.${stderr}`;
  }
  if (context.exit !== undefined && context.config.type !== "http" && spawnCode(error) === undefined) {
    return `${describeExit(context.exit)} before it finished starting. Run the command by hand to see why.${stderr}`;
  }
  return `${describeError(error, context.config)}${stderr}`;
}

/** `exited with code 3`, `was killed by SIGKILL`. */
export function describeExit(exit: ProcessExit): string {
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  return exit.code === null ? "ended" : `exited with code ${exit.code}`;
}

/** `\nIts last stderr lines:\n  …`, or "" when it wrote none. */
export function stderrNote(lines: readonly string[] | undefined): string {
  if (lines === undefined || lines.length === 0) return "";
  return `\nIts last stderr lines:\n${lines.map((line) => `  ${line}`).join("\n")}`;
}

/** An error of a connection or a call, for a user or the model: spawn errors, HTTP statuses, refused connections. */
export function describeError(error: unknown, config: McpServerConfig): string {
  if (config.type === "http") return describeHttpError(error, config.url);
  const code = spawnCode(error);
  if (code === "ENOENT") {
    return config.command.includes("/")
      ? `command "${config.command}" does not exist. Fix "command" in its configuration.`
      : `command "${config.command}" was not found on PATH. Install it, or set "command" to its full path.`;
  }
  if (code === "EACCES") return `command "${config.command}" is not executable (permission denied).`;
  return messageOf(error);
}

function describeHttpError(error: unknown, url: string): string {
  if (error instanceof SdkHttpError) {
    const status = `HTTP ${error.status}${error.statusText ? ` ${error.statusText}` : ""} from ${url}`;
    if (error.status === 401)
      return `${status}: the server wants credentials. Put them in its "headers" (e.g. "Authorization": "Bearer \${MY_TOKEN}"); OAuth sign-in is not supported.`;
    if (error.status === 403)
      return `${status}: the credentials in its "headers" do not give access to this server.`;
    if (error.status === 404)
      return `${status}: check the url (Streamable HTTP endpoints often end in /mcp).`;
    if (error.status === 405)
      return `${status}: the server does not accept Streamable HTTP at this url (an old SSE-only server is not supported).`;
    return `${status}: ${messageOf(error)}`;
  }
  const cause = causeCode(error);
  if (cause === "ECONNREFUSED")
    return `nothing is listening at ${url} (connection refused). Is the server running?`;
  if (cause === "ENOTFOUND" || cause === "EAI_AGAIN")
    return `the host of ${url} was not found. Check the url.`;
  if (error instanceof TypeError && error.message === "fetch failed") {
    return `could not reach ${url}: ${error.cause instanceof Error ? error.cause.message : "fetch failed"}.`;
  }
  return messageOf(error);
}

function isSdkCode(error: unknown, code: SdkErrorCode): boolean {
  return error instanceof SdkError && error.code === code;
}

/** The errno code of a failed spawn (`ENOENT`, `EACCES`). */
function spawnCode(error: unknown): string | undefined {
  if (error instanceof Error && "syscall" in error && String(error.syscall).startsWith("spawn")) {
    return "code" in error ? String(error.code) : undefined;
  }
  return undefined;
}

/** The errno code anywhere in the `cause` chain (`fetch failed` → `ECONNREFUSED`). */
function causeCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if ("code" in current && typeof current.code === "string" && current.code.startsWith("E"))
      return current.code;
    current = current.cause;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  const message = errorMessage(error);
  return message.endsWith(".") ? message : `${message}.`;
}
