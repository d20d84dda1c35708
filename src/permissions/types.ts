import { AgentryError } from "../errors/agentry-error.ts";
/**
 * The OS sandbox a command runs in: `read-only` sees the workspace but writes nothing (but a private
 * temp dir); `workspace-write` may also write the workspace, except protected paths and the paths
 * edit rules keep back. Neither reaches the network unless config allows hosts, nor reads what the
 * read rules keep back.
 */
export type SandboxProfile = "read-only" | "workspace-write";

/** What a tool asks permission for, e.g. `{ permission: "bash", patterns: ["git status"] }`. */
export interface PermissionRequest {
  /** `read`, `edit`, `bash`, `external_directory`, `task`, an MCP tool name … */
  permission: string;
  /** Concrete values matched against rule patterns: commands, workspace-relative paths, agent names. */
  patterns: string[];
  /** Human-readable summary for prompts, e.g. `edit src/a.ts`. */
  title?: string;
  /**
   * Set by a command that will run confined by the OS sandbox in this profile: where the profile is
   * no wider than the rules allow (`sandboxCovers`), what would be asked is allowed.
   */
  sandbox?: SandboxProfile;
  /**
   * `false`: settle the request without a person. Nothing is shown; what would be put to one is refused
   * like a deny, and the error says pattern by pattern what was denied and what needed approval
   * (`PermissionDeniedError.refused`). For a tool that checks many values of one call — grep's files —
   * and leaves out those it may not read instead of prompting for each.
   */
  prompt?: false;
  /**
   * Set by the loop for a tool call a hook approved (Claude Code's `permissionDecision: "allow"`): what
   * the mode would put to a person is allowed, except protected paths and leaving the sandbox or the
   * workspace. A deny rule or a mode's refusal still holds.
   */
  approvedByHook?: boolean;
  /** The tool call that asks (set by the loop), for an approver that wants to see it (PermissionRequest hooks). */
  call?: { id: string; name: string; args: unknown };
}

export type PermissionAction = "allow" | "ask" | "deny";

export interface PermissionRule {
  permission: string;
  pattern: string;
  action: PermissionAction;
  /**
   * A rule that may only narrow (a repository's rule in a folder the user has not trusted): it
   * decides a request only where it is stricter than what the other rules decide, so it can turn an
   * allow into an ask or a deny, never lift a deny or an ask (`findMatchingRule`).
   */
  narrowOnly?: true;
}

export type Ruleset = PermissionRule[];

/** The patterns of a request made with `prompt: false` that were not allowed. */
export interface RefusedPatterns {
  /** By a deny rule, or by the permission mode. */
  denied: string[];
  /** Allowed by no rule, mode or earlier "always": they would have been asked. */
  needsApproval: string[];
}

export class PermissionDeniedError extends AgentryError {
  override readonly name = "PermissionDeniedError";
  readonly kind = "user";
  /** Set for a request made with `prompt: false`. */
  readonly refused: RefusedPatterns | undefined;

  constructor(message: string, refused?: RefusedPatterns) {
    super(message);
    this.refused = refused;
  }
}
