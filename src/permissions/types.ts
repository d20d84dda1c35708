/** What a tool asks permission for, e.g. `{ permission: "bash", patterns: ["git status"] }`. */
export interface PermissionRequest {
  /** `read`, `edit`, `bash`, `external_directory`, `task`, an MCP tool name … */
  permission: string;
  /** Concrete values matched against rule patterns: commands, workspace-relative paths, agent names. */
  patterns: string[];
  /** Human-readable summary for prompts, e.g. `edit src/a.ts`. */
  title?: string;
}

export type PermissionAction = "allow" | "ask" | "deny";

export interface PermissionRule {
  permission: string;
  pattern: string;
  action: PermissionAction;
}

export type Ruleset = PermissionRule[];

export class PermissionDeniedError extends Error {
  override readonly name = "PermissionDeniedError";
}
