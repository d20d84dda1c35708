import type { HookEventName } from "./hook-events.ts";
import type { CommandRun } from "./run-hook-command.ts";

/** What one hook command said, read as Claude Code reads it. */
export interface HookReply {
  /**
   * Exit code 2, or `decision: "block"`: the action is blocked (a tool call, the prompt) or, for Stop,
   * the agent goes on; the text is the reason (stderr, or `reason`).
   */
  block?: string;
  /** PreToolUse's `permissionDecision` (or the older `decision: approve|block`), PermissionRequest's `behavior`. */
  permission?: { decision: "allow" | "deny" | "ask"; reason?: string };
  /** Replaces the tool call's input (Claude Code's shape). */
  updatedInput?: Record<string, unknown>;
  /** Added to what the model reads: stdout of SessionStart/UserPromptSubmit/SubagentStart, `additionalContext`. */
  context?: string;
  /** `continue: false`: the run stops; `stopReason` (shown to the user). */
  stop?: string;
  /** `systemMessage`: shown to the user. */
  systemMessage?: string;
  /** It failed without blocking (another exit code, a timeout, output that is not the JSON it seems to be). */
  error?: string;
}

/** Events whose plain stdout (exit 0) the model reads, as Claude Code adds it as context. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set([
  "SessionStart",
  "UserPromptSubmit",
  "SubagentStart",
]);

/**
 * Reads a hook's run: exit 0 → its stdout (JSON fields, or plain text as context where the event takes
 * it); exit 2 → a block with stderr; any other exit, a timeout or a start failure → an error that blocks
 * nothing (the run goes on), as Claude Code does.
 */
export function readHookReply(event: HookEventName, run: CommandRun, timeoutMs: number): HookReply {
  if (run.spawnError !== undefined) return { error: `could not start: ${run.spawnError}` };
  if (run.timedOut) return { error: `timed out after ${formatSeconds(timeoutMs)} and was stopped` };
  if (run.aborted) return { error: "stopped (the run was cancelled)" };
  const stderr = run.stderr.trim();
  if (run.exitCode === 2) return { block: stderr || `a ${event} hook blocked it (exit 2, no message)` };
  if (run.exitCode !== 0)
    return { error: `exit ${run.exitCode ?? "?"}${stderr === "" ? "" : `: ${stderr}`}` };
  const stdout = run.stdout.trim();
  if (stdout === "") return {};
  if (stdout.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(stdout);
    } catch {
      return { error: `its output starts with "{" but is not JSON: ${shorten(stdout)}` };
    }
    if (isObject(json)) return readJson(event, json);
  }
  return STDOUT_IS_CONTEXT.has(event) ? { context: stdout } : {};
}

function readJson(event: HookEventName, json: Record<string, unknown>): HookReply {
  const reply: HookReply = {};
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  if (json.continue === false)
    reply.stop = text(json.stopReason) ?? `a ${event} hook stopped the run (continue: false)`;
  const systemMessage = text(json.systemMessage);
  if (systemMessage !== undefined) reply.systemMessage = systemMessage;
  const context = text(specific.additionalContext);
  if (context !== undefined) reply.context = context;
  const reason = text(json.reason);

  if (event === "PreToolUse") {
    const decision = specific.permissionDecision;
    const why = text(specific.permissionDecisionReason) ?? reason;
    if (decision === "allow" || decision === "deny" || decision === "ask")
      reply.permission = { decision, ...(why === undefined ? {} : { reason: why }) };
    // The fields Claude Code had first, still honoured: `decision: approve | block` with `reason`.
    else if (json.decision === "approve")
      reply.permission = { decision: "allow", ...(why ? { reason: why } : {}) };
    else if (json.decision === "block")
      reply.permission = { decision: "deny", reason: why ?? "blocked by a PreToolUse hook" };
    if (isObject(specific.updatedInput)) reply.updatedInput = specific.updatedInput;
    return reply;
  }
  if (event === "PermissionRequest") {
    const decision = isObject(specific.decision) ? specific.decision : {};
    const message = text(decision.message);
    if (decision.behavior === "allow") reply.permission = { decision: "allow" };
    if (decision.behavior === "deny")
      reply.permission = { decision: "deny", reason: message ?? "denied by a PermissionRequest hook" };
    if (isObject(decision.updatedInput)) reply.updatedInput = decision.updatedInput;
    return reply;
  }
  if (json.decision === "block") reply.block = reason ?? `blocked by a ${event} hook (no reason given)`;
  return reply;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function shorten(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}
