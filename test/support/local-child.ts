import { Session } from "../../src/agent/session/session.ts";
import { builtinAgents } from "../../src/agents/builtin-agents.ts";
import type { Model } from "../../src/model/model.ts";
import type { PermissionMode } from "../../src/permissions/modes.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { CHILD_SPEC_VERSION, type LoopChildSpec } from "../../src/subagents/child/child-spec.ts";
import { prepareChildWorkspace } from "../../src/subagents/child/child-workspace.ts";
import type { LocalChild } from "../../src/subagents/child/local-child.ts";
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
  /** Its rules (default none). */
  rules?: Ruleset;
  /** Its session (default: a new one in memory only). */
  session?: Session;
}

/**
 * A child as its parent describes and builds it before any executor runs it — its built-in
 * definition, an unpersisted session (unless given) and a shared workspace here, its model as given,
 * no rules unless given — for the executor tests and benchmarks (in-process, queued) that drive one
 * directly.
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
  const agentPath = options.agentPath ?? ["main", `${agentName}-1`];
  const tools = options.tools ?? [];
  const mode = options.mode ?? "default";
  const rules = options.rules ?? [];
  const spec: LoopChildSpec = {
    v: CHILD_SPEC_VERSION,
    kind: "loop",
    taskId: session.id,
    sessionId: session.id,
    parentSessionId: "",
    agentPath,
    depth: 1,
    agent: { name: definition.name, description: definition.description, prompt: definition.prompt },
    model: model.id,
    tools: tools.map((tool) => tool.name),
    spawn: false,
    rules,
    mode,
    sandbox: { readOnly: false },
    limits: { maxTurns: 30 },
    tree: { id: "test-tree", maxDepth: 1, maxDescendants: 64 },
    workspace: { mode: "shared", parent: workspace },
  };
  return {
    spec,
    rules,
    mode,
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
      tools,
      workspace,
      ops: nodeOperations,
      agentPath,
      depth: 1,
    },
  };
}
