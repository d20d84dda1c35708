/**
 * Claude Code's hook events, by the names its settings files use. What each one's matcher is compared
 * with, where it has one: tool events match the tool's name (Claude Code's: `Bash`, `Read`,
 * `mcp__server__tool`), subagent events the agent's type, and the session events their source, reason,
 * trigger or notification type. `UserPromptSubmit` and `Stop` take no matcher.
 */
export const HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "Notification",
  "SubagentStart",
  "SubagentStop",
  "Stop",
  "PreCompact",
  "SessionEnd",
] as const;

export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Events of Claude Code that agentry does not fire: a hook on one is reported and never runs. */
export const UNSUPPORTED_EVENTS: ReadonlySet<string> = new Set([
  "PostToolUseFailure",
  "PermissionDenied",
  "Setup",
  "StopFailure",
  "PostCompact",
  "ConfigChange",
  "CwdChanged",
  "FileChanged",
  "InstructionsLoaded",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "Elicitation",
  "ElicitationResult",
  "WorktreeCreate",
  "WorktreeRemove",
]);

/** Events whose matcher Claude Code ignores: every hook of theirs runs. */
export const UNMATCHED_EVENTS: ReadonlySet<HookEventName> = new Set(["UserPromptSubmit", "Stop"]);

export function isHookEvent(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}
