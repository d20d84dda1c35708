import type { z } from "zod";
import { isAgentryError } from "../../errors/agentry-error.ts";
import type { ToolCallPart } from "../../model/messages.ts";
import { errorMessage } from "../../text/error-message.ts";

/**
 * The error texts the model gets back for a bad tool call. Each says what was wrong and what to do,
 * because the model's next step depends only on this text.
 */

export function unknownToolMessage(name: string, available: string[]): string {
  const list = available.length > 0 ? available.join(", ") : "(none: answer in text)";
  return `Unknown tool "${name}". Available tools: ${list}.`;
}

export function malformedArgsMessage(call: ToolCallPart): string {
  return (
    `The arguments of this "${call.name}" call are not valid JSON (${jsonProblem(call.rawArgs)}). ` +
    `Raw arguments: ${shorten(call.rawArgs, 500)}\nCall the tool again with a valid JSON object.`
  );
}

export function invalidArgsMessage(name: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "(arguments)";
    return `- ${field}: ${issue.message}`;
  });
  return `Invalid arguments for "${name}":\n${lines.join("\n")}\nFix these fields and call the tool again.`;
}

export function deniedMessage(reason: string): string {
  return `Tool call denied: ${reason}`;
}

/**
 * agentry's own errors (a `ToolError`, a permission denial, a limit …) are written to be read as they
 * are; anything else (a bug, a library's error) keeps its class name.
 */
export function thrownMessage(error: unknown): string {
  if (isAgentryError(error)) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `Error: ${String(error)}`;
}

export const ABORTED_RESULT = "aborted: the run was cancelled before this tool finished.";
export const INTERRUPTED_RESULT = "interrupted: the process stopped before this tool finished.";
export const TURN_LIMIT_RESULT =
  "not run: the turn limit was reached, so no more tools can run in this session run.";

export const NOT_RUN_RESULT =
  "not run: the run was stopped (aborted or over its budget) before this tool started.";

function jsonProblem(raw: string): string {
  if (raw.trim() === "") return "they are empty";
  try {
    JSON.parse(raw);
    return "they are not a JSON object";
  } catch (error) {
    return errorMessage(error);
  }
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)} … (${text.length - 2 * half} characters cut) … ${text.slice(-half)}`;
}
