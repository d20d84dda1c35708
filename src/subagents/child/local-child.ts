import type { AgentConfig } from "../../agent/config.ts";
import type { Session } from "../../agent/session/session.ts";
import type { McpServerRef } from "../../agents/definition.ts";
import type { PermissionMode } from "../../permissions/modes.ts";
import type { Ruleset } from "../../permissions/types.ts";
import type { LoopChildSpec } from "./child-spec.ts";
import type { ChildWorkspace } from "./child-workspace.ts";

/** A child made from its spec to run in this process (`childFromSpec`): what the in-process executor runs. */
export interface LocalChild {
  /** What it is, as its parent described it. */
  spec: LoopChildSpec;
  /** Its loop's config; the executor adds the hooks that deliver `send`'s messages. */
  config: AgentConfig;
  /** Its permission rules, as this machine's gate applies them (never wider than its spec's). */
  rules: Ruleset;
  /** The permission mode its gate applies to what its rules leave open. */
  mode: PermissionMode;
  /** Its conversation: it keeps its history between activations. */
  session: Session;
  workspace: ChildWorkspace;
  /**
   * The MCP servers its definition declares inline, started for each activation (in its parent's
   * process only: they never travel, their configs may hold secrets), minus `disallowedTools`.
   */
  mcp?: { servers: readonly McpServerRef[]; disallowedTools: readonly string[] };
}
