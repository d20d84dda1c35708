import type { AgentDefinition } from "../agents/definition.ts";
import type { ExecutorRef } from "../tasks/task-record.ts";
import type { ChildExecutor } from "./executor.ts";

/**
 * Runs the children whose definition has a `url` (remote agents). The A2A client (`src/remote/`)
 * implements it and the composition root passes it in (`SubagentOptions.remote`); the runtime only
 * knows this seam. Without it, a remote agent is refused with a clear message.
 */
export interface RemoteExecutors {
  /** Where a remote definition runs, shown where a local child shows its model (`a2a:https://…`). */
  label(definition: AgentDefinition): string;
  /** The executor of one remote child: a new one, or one known from its record (`ref`). */
  executor(child: RemoteChildSpec): ChildExecutor;
}

export interface RemoteChildSpec {
  definition: AgentDefinition;
  /** Its task_id, which is also its session id: its transcript lives with the remote agent. */
  taskId: string;
  parentSessionId: string;
  agentPath: readonly string[];
  /** Its conversation on the remote agent, from its record (a child rebuilt after a restart). */
  ref?: ExecutorRef;
  /** The limits of each activation, as a local child's loop has them. */
  limits: RemoteChildLimits;
}

export interface RemoteChildLimits {
  /** No event from the remote agent for this long fails the activation (`stalled`). */
  stallTimeoutMs: number;
  /** Tokens one activation may use, as the remote agent reports them. */
  maxTokens?: number;
  /** Wall-clock time of one activation. */
  maxDurationMs?: number;
}
