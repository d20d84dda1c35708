import type { Model } from "../model/model.ts";
import type { PermissionRequest } from "../permissions/types.ts";
import type { CommandPolicy } from "../sandbox/policy.ts";
import type { Operations } from "../tools/operations.ts";
import type { AgentIdentity, AnyTool } from "../tools/tool.ts";
import type { Hooks } from "./hooks.ts";
import type { RunLimits } from "./limits/run-limits.ts";
import type { Redactor } from "./tool-calls/redact.ts";

/** Everything one run of the loop needs. Built by the composition root (`src/cli/`) or a library user. */
export interface AgentConfig {
  /** The agent definition's name; `main` for the root agent. */
  name: string;
  model: Model;
  systemPrompt: string;
  tools: AnyTool[];
  /** Default 30. The last allowed turn is told to wrap up in text. */
  maxTurns?: number;
  hooks?: Hooks[];
  /** Absolute path of the workspace root. */
  workspace: string;
  ops: Operations;
  /**
   * How the agent's commands run: the OS sandbox derived from its rules (`policyForAgent`) and the
   * environment variables they inherit. Default: no sandbox, `DEFAULT_COMMAND_ENV`.
   */
  commands?: CommandPolicy;
  /** Default ["main"]. */
  agentPath?: string[];
  /** 0 for the root agent. */
  depth?: number;
  /**
   * Permission gate: resolves when allowed, throws `PermissionDeniedError` when denied. Default: allow.
   * `signal` is the run's: when the run stops, a pending question is withdrawn.
   */
  ask?: (request: PermissionRequest, agent: AgentIdentity, signal?: AbortSignal) => Promise<void>;
  /** Characters of tool output sent to the model before truncation (default 50,000). */
  toolOutputLimit?: number;
  /** Removes secrets from tool output before the model, the transcript or a UI sees it (`createRedactor`). */
  redact?: Redactor;
  /** Token and wall-clock budgets and the stall watchdog. */
  limits?: RunLimits;
  temperature?: number;
  maxOutputTokens?: number;
}

export const DEFAULT_MAX_TURNS = 30;
export const DEFAULT_TOOL_OUTPUT_LIMIT = 50_000;
