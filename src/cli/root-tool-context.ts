import type { AgentConfig } from "../agent/config.ts";
import { PermissionDeniedError } from "../permissions/types.ts";
import type { AgentIdentity, ToolContext } from "../tools/tool.ts";

/**
 * A tool context for running the root agent's tools on the person's behalf — `@` mentions read through
 * `read`, `!cmd` runs through `bash` — with the root's workspace, file operations, command policy (the
 * OS sandbox) and permission gate, so what the person asks for passes the rules the agent's own calls
 * pass. Without a gate nothing is allowed: a context that cannot ask is denied.
 */
export function rootToolContext(
  config: AgentConfig,
  signal: AbortSignal,
  options: { sessionId: string; toolCallId: string; progress?: (update: string) => void },
): ToolContext {
  const agent: AgentIdentity = {
    path: config.agentPath ?? [config.name],
    name: config.name,
    sessionId: options.sessionId,
    depth: config.depth ?? 0,
  };
  const { ask } = config;
  return {
    workspace: config.workspace,
    ops: config.ops,
    ...(config.commands === undefined ? {} : { commands: config.commands }),
    signal,
    ask: (request) =>
      ask === undefined
        ? Promise.reject(new PermissionDeniedError("No permission gate: nothing can be allowed."))
        : ask(request, agent, signal),
    progress: options.progress ?? (() => {}),
    emit: () => {},
    agent,
    toolCallId: options.toolCallId,
  };
}
