/**
 * Who must act for an error to go away:
 * - `user`: the person or program using agentry (a bad flag, config file, agent file, session id, a
 *   limit they set) — the CLI exits 2;
 * - `model`: the model asked for something that cannot be done (a tool call that failed, too many
 *   subagents) — it is told, and may try otherwise;
 * - `system`: the machine or a dependency failed (a damaged task file, a lock held too long, git) —
 *   retrying later or fixing the environment may help.
 */
export type ErrorKind = "user" | "model" | "system";

export const ERROR_KINDS: readonly ErrorKind[] = ["user", "model", "system"];

/**
 * The mark every agentry error carries. `Symbol.for` gives the same symbol to every copy of the
 * package loaded in one process (two versions in one dependency tree), where `instanceof` fails.
 */
const AGENTRY_ERROR: unique symbol = Symbol.for("agentry-ai.error");

/**
 * The base of every error agentry throws on purpose. A subclass names its fault with `kind`; callers
 * decide by `kind` (`isAgentryError`, `errorKind`), never by the message's text.
 */
export abstract class AgentryError extends Error {
  abstract readonly kind: ErrorKind;
  readonly [AGENTRY_ERROR] = true;
}

/** True for an error of any copy of agentry (see `AGENTRY_ERROR`). */
export function isAgentryError(value: unknown): value is AgentryError {
  if (typeof value !== "object" || value === null) return false;
  const marked = (value as { [AGENTRY_ERROR]?: unknown })[AGENTRY_ERROR] === true;
  return marked && ERROR_KINDS.includes((value as { kind?: unknown }).kind as ErrorKind);
}

/** The fault of an agentry error; undefined for anything else (a bug, or a library's own error). */
export function errorKind(value: unknown): ErrorKind | undefined {
  return isAgentryError(value) ? value.kind : undefined;
}
