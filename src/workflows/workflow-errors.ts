import { AgentryError } from "../errors/agentry-error.ts";

/** A workflow script that cannot run as written: a syntax error, a missing `meta`, a forbidden API. */
export class WorkflowScriptError extends AgentryError {
  override readonly name = "WorkflowScriptError";
  readonly kind = "user";
}

/** A workflow the user named that is not there, or whose arguments or resume id do not fit. */
export class WorkflowInputError extends AgentryError {
  override readonly name = "WorkflowInputError";
  readonly kind = "user";
}

/** The sandbox itself failed (the engine would not load, it ran out of memory or time). */
export class WorkflowSandboxError extends AgentryError {
  override readonly name = "WorkflowSandboxError";
  readonly kind = "system";
}
