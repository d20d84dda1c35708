import type { AgentDefinition } from "../agents/definition.ts";
import type { TaskRecord } from "../tasks/task-record.ts";
import { ToolError } from "../tools/tool.ts";
import type { ChildIdentity } from "./child.ts";
import type { ChildExecutor } from "./executor.ts";
import type { SubagentLimits } from "./limits.ts";
import type { RemoteChildSpec, RemoteExecutors } from "./remote-executors.ts";

/** Who a remote child is and its executor: built for a new child, or rebuilt from its record. */
export interface RemoteChildBuild {
  identity: ChildIdentity;
  executor: ChildExecutor;
}

export interface RemoteChildSetup {
  definition: AgentDefinition;
  taskId: string;
  description: string;
  parentSessionId: string;
  parentAgentId: string;
  agentPath: readonly string[];
  /** Its record's `ref`, for a child known from its record. */
  ref?: TaskRecord["ref"];
}

/**
 * A child of a remote (A2A) agent. It has no local session: its task_id names it, and its history
 * lives in its conversation with the remote agent. Its activations have a local child's limits
 * (stall watchdog, token and wall-clock budgets); its turn limit is the remote agent's business.
 */
export function buildRemoteChild(
  remote: RemoteExecutors | undefined,
  limits: Pick<SubagentLimits, "maxTurns" | "stallTimeoutMs" | "maxTokens" | "maxDurationMs">,
  setup: RemoteChildSetup,
): RemoteChildBuild {
  const { definition } = setup;
  if (remote === undefined)
    throw new ToolError(
      `Agent "${definition.name}" is a remote (A2A) agent at ${definition.url}, and this runtime was started without remote executors, so it cannot call it. Use another agent.`,
    );
  const spec: RemoteChildSpec = {
    definition,
    taskId: setup.taskId,
    parentSessionId: setup.parentSessionId,
    agentPath: setup.agentPath,
    ...(setup.ref === undefined ? {} : { ref: setup.ref }),
    limits: {
      stallTimeoutMs: limits.stallTimeoutMs,
      ...(limits.maxTokens === undefined ? {} : { maxTokens: limits.maxTokens }),
      ...(limits.maxDurationMs === undefined ? {} : { maxDurationMs: limits.maxDurationMs }),
    },
  };
  return {
    identity: {
      taskId: setup.taskId,
      definition,
      description: setup.description,
      parentSessionId: setup.parentSessionId,
      parentAgentId: setup.parentAgentId,
      agentPath: setup.agentPath,
      sessionId: setup.taskId,
      model: remote.label(definition),
      maxTurns: definition.maxTurns ?? limits.maxTurns,
    },
    executor: remote.executor(spec),
  };
}
