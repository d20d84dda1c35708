import { Session } from "../../src/agent/session/session.ts";
import { builtinAgents } from "../../src/agents/builtin-agents.ts";
import type { Model } from "../../src/model/model.ts";
import type { PermissionMode } from "../../src/permissions/modes.ts";
import { prepareChildWorkspace } from "../../src/subagents/child-workspace.ts";
import type { LocalChild } from "../../src/subagents/local-child.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import type { AnyTool } from "../../src/tools/tool.ts";

export interface LocalChildOptions {
  /** A built-in agent's name (default `explore`). */
  agent?: string;
  mode?: PermissionMode;
  tools?: AnyTool[];
  /** Default `main/<agent>-1`. */
  agentPath?: string[];
  /** The id its workspace is made for (default: its session's). */
  taskId?: string;
  /** Its session (default: a new one in memory only). */
  session?: Session;
}

/**
 * A child as its parent builds it before any executor runs it — its built-in definition, an
 * unpersisted session (unless given) and a shared workspace here, its model as given, no rules — for the executor
 * tests and benchmarks (in-process, queued) that drive one directly.
 */
export async function testLocalChild(
  model: Model,
  workspace: string,
  options: LocalChildOptions = {},
): Promise<LocalChild> {
  const agentName = options.agent ?? "explore";
  const definition = builtinAgents().find((agent) => agent.name === agentName);
  if (definition === undefined) throw new Error(`no built-in agent ${agentName}`);
  const session =
    options.session ?? (await Session.create({ workspace, agentName, model: model.id, persist: false }));
  return {
    definition,
    rules: [],
    mode: options.mode ?? "default",
    session,
    workspace: await prepareChildWorkspace({
      mode: "shared",
      parentWorkspace: workspace,
      agentName,
      taskId: options.taskId ?? session.id,
    }),
    config: {
      name: agentName,
      model,
      systemPrompt: "You are a subagent of a test.",
      tools: options.tools ?? [],
      workspace,
      ops: nodeOperations,
      agentPath: options.agentPath ?? ["main", `${agentName}-1`],
      depth: 1,
    },
  };
}
