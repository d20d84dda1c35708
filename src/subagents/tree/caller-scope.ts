import type { Redactor } from "../../agent/tool-calls/redact.ts";
import type { Model } from "../../model/model.ts";
import type { PermissionGate } from "../../permissions/gate.ts";
import type { CommandPolicy } from "../../sandbox/policy.ts";
import type { Operations } from "../../tools/operations.ts";
import type { AnyTool } from "../../tools/tool.ts";

/**
 * What a `task` tool knows about the agent it belongs to. The rest of the caller's identity (path,
 * depth, session, workspace) comes from the `ToolContext` of each call.
 */
export interface CallerScope {
  /** The caller's tools, which a child without a `tools` list inherits. */
  tools: readonly AnyTool[];
  /** The caller's gate: its rules decide whom it may spawn and what its children inherit. */
  gate: PermissionGate;
  /** What `inherit` (or no model anywhere) means for its children. */
  model: Model;
  ops: Operations;
  /** How the caller's commands run: its children's sandbox derives from it and is never wider. */
  commands?: CommandPolicy;
  toolOutputLimit?: number;
  /** The caller's secret redaction, which its children keep. */
  redact?: Redactor;
}
