import { resolve } from "node:path";
import type { EventBody } from "../agent/emitter.ts";
import type { Approver, AskHandler, AskRequest } from "../permissions/gate.ts";
import type { HookSession } from "./claude-hooks.ts";
import { claudeToolInput, claudeToolName } from "./claude-tool-input.ts";
import type { HookRunner } from "./hook-runner.ts";

/** Where the events of hooks that run outside an agent's own step go, with the asking agent's path. */
export type AgentSink = (event: EventBody, agentPath: readonly string[]) => void;

/**
 * PermissionRequest: where agentry would put a question to the person (or, with no one to ask, deny),
 * the hooks answer first. `behavior: "allow"` grants it (never a protected path or leaving the sandbox or
 * the workspace: the gate keeps those for a person), `"deny"` refuses it with the hook's message, exit 2
 * refuses it with stderr; no answer leaves it to the person. `emit` reports each run (the root's stream).
 */
export function permissionRequestApprover(
  runner: HookRunner,
  session: HookSession,
  emit?: AgentSink,
): Approver {
  return async (request, signal) => {
    const { toolName, toolInput } = askedTool(request, runner.workspace);
    if (!runner.has("PermissionRequest", toolName)) return undefined;
    const answers = await runner.run("PermissionRequest", {
      match: toolName,
      sessionId: session.rootSessionId,
      input: {
        tool_name: toolName,
        tool_input: toolInput,
        ...(request.agentPath.length > 1 ? { agent_path: request.agentPath.join("/") } : {}),
      },
      ...(emit === undefined ? {} : { emit: (event: EventBody) => emit(event, request.agentPath) }),
      ...(request.call === undefined ? {} : { toolCallId: request.call.id }),
      toolName,
      ...(signal === undefined ? {} : { signal }),
    });
    const denial = answers.find(
      (answer) => answer.block !== undefined || answer.permission?.decision === "deny",
    );
    if (denial !== undefined)
      return { behavior: "deny", message: denial.block ?? denial.permission?.reason ?? "denied by a hook" };
    if (answers.some((answer) => answer.permission?.decision === "allow")) return { behavior: "allow" };
    return undefined;
  };
}

/**
 * Notification (`permission_prompt`) as a question is put to the person, then the question itself. The
 * hook runs beside the prompt: a notifier that is slow does not hold the question back.
 */
export function notifyingAsk(
  onAsk: AskHandler,
  runner: HookRunner,
  session: HookSession,
  emit?: AgentSink,
): AskHandler {
  return (request, signal) => {
    const { toolName } = askedTool(request, runner.workspace);
    if (runner.has("Notification", "permission_prompt"))
      void runner.run("Notification", {
        match: "permission_prompt",
        sessionId: session.rootSessionId,
        input: {
          message: `agentry needs your permission to use ${toolName}`,
          notification_type: "permission_prompt",
        },
        ...(emit === undefined ? {} : { emit: (event: EventBody) => emit(event, request.agentPath) }),
      });
    return onAsk(request, signal);
  };
}

/**
 * The tool an ask is about, as Claude Code names it and shapes its input: the call's own when the loop
 * passed it, else from the permission and its pattern (a person's `!cmd`, an `@` mention).
 */
function askedTool(
  request: AskRequest,
  workspace: string,
): { toolName: string; toolInput: Record<string, unknown> } {
  if (request.call !== undefined)
    return {
      toolName: claudeToolName(request.call.name),
      toolInput: claudeToolInput(request.call.name, request.call.args, workspace),
    };
  const pattern = request.patterns[0] ?? "";
  switch (request.permission) {
    case "bash":
      return { toolName: "Bash", toolInput: { command: pattern } };
    case "edit":
      return { toolName: "Edit", toolInput: { file_path: resolve(workspace, pattern) } };
    case "read":
      return { toolName: "Read", toolInput: { file_path: resolve(workspace, pattern) } };
    default:
      return { toolName: claudeToolName(request.permission), toolInput: { patterns: request.patterns } };
  }
}
