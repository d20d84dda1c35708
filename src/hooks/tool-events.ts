import type { HookContext, ToolDecision } from "../agent/hooks.ts";
import type { ToolCallPart, ToolResultPart } from "../model/messages.ts";
import { agentryToolArgs, claudeToolInput, claudeToolName, claudeToolResponse } from "./claude-tool-input.ts";
import type { HookAnswer, HookRunner } from "./hook-runner.ts";

/** Who a tool call's agent is, in the fields Claude Code gives a subagent's events. */
export interface AgentFields {
  /** `session_id`: the root's session, as Claude Code gives its subagents' events the main session's. */
  sessionId: string;
  /** A child's own fields (`agent_id`, `agent_type`) and agentry's `agent_path`; none for the root. */
  extra: Record<string, unknown>;
}

/**
 * PreToolUse: the hooks see the call as Claude Code shows its own (`tool_name` `Bash`, `tool_input` with
 * `file_path` …). A deny (exit 2, `permissionDecision: "deny"`, `decision: "block"`) refuses the call with
 * the hook's reason, which the model reads; `ask` puts it to the person; `allow` answers its prompts
 * (never a deny rule); `updatedInput` replaces its arguments; `continue: false` refuses it and ends the run.
 */
export async function preToolUse(
  runner: HookRunner,
  ctx: HookContext & { call: ToolCallPart },
  who: AgentFields,
): Promise<ToolDecision | undefined> {
  const { call } = ctx;
  const toolName = claudeToolName(call.name);
  if (!runner.has("PreToolUse", toolName)) return undefined;
  const answers = await runToolHooks(runner, "PreToolUse", ctx, who, toolName);
  const stop = answers.find((answer) => answer.stop !== undefined)?.stop;
  if (stop !== undefined) {
    ctx.stop?.(stop);
    return { action: "deny", reason: `a PreToolUse hook stopped the run: ${stop}` };
  }
  const denials = answers.flatMap((answer) =>
    answer.block !== undefined
      ? [answer.block]
      : answer.permission?.decision === "deny"
        ? [answer.permission.reason ?? "denied by a PreToolUse hook"]
        : [],
  );
  if (denials.length > 0) return { action: "deny", reason: denials.join("\n") };
  const updated = lastUpdate(answers);
  const args = updated === undefined ? {} : { args: agentryToolArgs(call.name, updated, runner.workspace) };
  const ask = answers.find((answer) => answer.permission?.decision === "ask");
  if (ask !== undefined)
    return { action: "ask", ...(ask.permission?.reason ? { reason: ask.permission.reason } : {}), ...args };
  const allowed = answers.some((answer) => answer.permission?.decision === "allow");
  if (allowed || updated !== undefined)
    return { action: "allow", ...(allowed ? { approve: true } : {}), ...args };
  return undefined;
}

/**
 * PostToolUse, after a call that succeeded: the hooks see its input and `tool_response`. What they say to
 * the model (exit 2's stderr, `decision: "block"`'s reason, `additionalContext`) is added to the result
 * it reads; `continue: false` ends the run after this step.
 */
export async function postToolUse(
  runner: HookRunner,
  ctx: HookContext & { call: ToolCallPart; result: ToolResultPart },
  who: AgentFields,
): Promise<ToolResultPart | undefined> {
  const { call, result } = ctx;
  const toolName = claudeToolName(call.name);
  if (result.isError || !runner.has("PostToolUse", toolName)) return undefined;
  const answers = await runToolHooks(runner, "PostToolUse", ctx, who, toolName, {
    tool_response: claudeToolResponse(call.name, call.args, result.content, runner.workspace),
  });
  const stop = answers.find((answer) => answer.stop !== undefined)?.stop;
  if (stop !== undefined) ctx.stop?.(stop);
  const notes = answers.flatMap((answer) => [
    ...(answer.block === undefined ? [] : [`PostToolUse hook feedback:\n${answer.block}`]),
    ...(answer.context === undefined ? [] : [answer.context]),
  ]);
  if (notes.length === 0) return undefined;
  return { ...result, content: [result.content, ...notes].join("\n\n") };
}

function lastUpdate(answers: readonly HookAnswer[]): Record<string, unknown> | undefined {
  return answers.findLast((answer) => answer.updatedInput !== undefined)?.updatedInput;
}

/** A tool event's hooks, shown the call as Claude Code shows its own (and, after it, its response). */
function runToolHooks(
  runner: HookRunner,
  event: "PreToolUse" | "PostToolUse",
  ctx: HookContext & { call: ToolCallPart },
  who: AgentFields,
  toolName: string,
  response: { tool_response?: unknown } = {},
): Promise<HookAnswer[]> {
  const { call } = ctx;
  return runner.run(event, {
    match: toolName,
    sessionId: who.sessionId,
    input: {
      ...who.extra,
      tool_name: toolName,
      tool_input: claudeToolInput(call.name, call.args, runner.workspace),
      ...response,
      tool_use_id: call.id,
    },
    ...(ctx.emit === undefined ? {} : { emit: ctx.emit }),
    toolCallId: call.id,
    toolName,
    signal: ctx.signal,
  });
}
