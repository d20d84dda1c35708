import { type AgentConfig, DEFAULT_MAX_TURNS } from "../agent/config.ts";
import type { Session } from "../agent/session/session.ts";
import type { AgentDefinition } from "../agents/definition.ts";
import type { PermissionMode } from "../permissions/modes.ts";
import type { Ruleset } from "../permissions/types.ts";
import type { ChildIdentity } from "./child.ts";
import type { ChildWorkspace } from "./child-workspace.ts";

/** A child built to run in this process (`child-config.ts` builds it; `restore-child.ts` rebuilds it). */
export interface LocalChild {
  definition: AgentDefinition;
  /** Its loop's config; the executor adds the hooks that deliver `send`'s messages. */
  config: AgentConfig;
  /** Its permission rules (its definition's plus every deny of its parent). */
  rules: Ruleset;
  /** The run's permission mode, which its gate applies to what its rules leave open. */
  mode: PermissionMode;
  /** Its conversation: it keeps its history between activations. */
  session: Session;
  workspace: ChildWorkspace;
}

/** Who a child built here is: what its build says, plus who started it and why. */
export function localIdentity(
  local: LocalChild,
  who: Pick<ChildIdentity, "taskId" | "description" | "parentSessionId" | "parentAgentId">,
): ChildIdentity {
  return {
    taskId: who.taskId,
    description: who.description,
    parentSessionId: who.parentSessionId,
    parentAgentId: who.parentAgentId,
    definition: local.definition,
    agentPath: local.config.agentPath ?? [],
    sessionId: local.session.id,
    model: local.config.model.id,
    maxTurns: local.config.maxTurns ?? DEFAULT_MAX_TURNS,
  };
}
