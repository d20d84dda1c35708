import { readFileSync } from "node:fs";
import type { AgentConfig } from "../agent/config.ts";
import { Session } from "../agent/session.ts";
import { newSessionId } from "../agent/session-id.ts";
import type { Model } from "../model/model.ts";
import { canSpawn } from "../permissions/derive.ts";
import { type ToolContext, ToolError, type ToolResult } from "../tools/tool.ts";
import type { CallerScope } from "./caller-scope.ts";
import { AgentPermissionError, childRules } from "./child-rules.ts";
import { childTools } from "./child-tools.ts";
import { ChildWorkspaceError, prepareChildWorkspace } from "./child-workspace.ts";
import { type AgentDefinition, isSubagent } from "./definition.ts";
import { runChild, withSlot } from "./run-child.ts";
import { DEFAULT_SUBAGENT_TYPE, spawnableAgents } from "./spawnable-agents.ts";
import { type ChildRecord, SubagentLimitError, type SubagentRuntime } from "./subagent-runtime.ts";
import type { TaskArgs } from "./task-tool.ts";

const PREAMBLE = readFileSync(new URL("./child-preamble.md", import.meta.url), "utf8").trim();

/** One `task` call: continue the child named by `task_id`, or start a new one. */
export function runTask(
  runtime: SubagentRuntime,
  caller: CallerScope,
  args: TaskArgs,
  ctx: ToolContext,
): Promise<ToolResult> {
  return args.task_id === undefined
    ? startChild(runtime, caller, args, ctx)
    : continueChild(runtime, args.task_id, args, ctx);
}

async function startChild(
  runtime: SubagentRuntime,
  caller: CallerScope,
  args: TaskArgs,
  ctx: ToolContext,
): Promise<ToolResult> {
  const { limits } = runtime;
  // The tool is hidden at the limit; this refuses a call that reached it anyway.
  if (ctx.agent.depth >= limits.maxDepth) {
    throw new ToolError(
      `Refused: agent ${ctx.agent.path.join("/")} is at depth ${ctx.agent.depth} and subagents may nest only ${limits.maxDepth} level(s) deep (maxDepth), so it cannot start subagents. Do the work yourself.`,
    );
  }
  const definition = resolveDefinition(runtime, caller, args.subagent_type ?? DEFAULT_SUBAGENT_TYPE);
  await ctx.ask({
    permission: "task",
    patterns: [definition.name],
    title: `start subagent ${definition.name}: ${args.description}`,
  });
  const model = resolveModel(runtime, caller, definition, args.model);
  try {
    runtime.reserveDescendant();
  } catch (error) {
    if (error instanceof SubagentLimitError) throw new ToolError(error.message);
    throw error;
  }
  const taskId = newSessionId({ prefix: "sub" });
  const path = [...ctx.agent.path, `${definition.name}-${runtime.nextNumber(definition.name)}`];
  let started = false;
  try {
    return await withSlot(runtime, ctx, path.join("/"), async () => {
      const record = await createChild(runtime, caller, { definition, model, taskId, path }, ctx);
      runtime.remember(record);
      started = true;
      record.running = true;
      try {
        return await runChild(runtime, record, args.prompt, args.description, ctx);
      } finally {
        record.running = false;
      }
    });
  } finally {
    if (!started) runtime.releaseDescendant();
  }
}

async function continueChild(
  runtime: SubagentRuntime,
  taskId: string,
  args: TaskArgs,
  ctx: ToolContext,
): Promise<ToolResult> {
  const record = runtime.child(taskId);
  const mine = runtime.childrenOf(ctx.agent.sessionId);
  const known = mine.length > 0 ? `Your task_ids: ${mine.join(", ")}.` : "You have started no subagents yet.";
  if (record === undefined) {
    throw new ToolError(
      `Unknown task_id "${taskId}": no subagent with that id was started in this run. ${known} Omit task_id to start a new subagent.`,
    );
  }
  if (record.parentSessionId !== ctx.agent.sessionId) {
    throw new ToolError(
      `task_id "${taskId}" belongs to another agent's subagent; only its parent can continue it. ${known}`,
    );
  }
  if (record.running) {
    throw new ToolError(
      `Subagent ${taskId} is still running; wait for its result before sending it more work.`,
    );
  }
  // Marked before waiting for a slot, so a second continuation in the same message is refused.
  record.running = true;
  try {
    return await withSlot(runtime, ctx, record.config.agentPath?.join("/") ?? taskId, () =>
      runChild(runtime, record, args.prompt, args.description, ctx),
    );
  } finally {
    record.running = false;
  }
}

function resolveDefinition(runtime: SubagentRuntime, caller: CallerScope, type: string): AgentDefinition {
  const available = () => {
    const names = spawnableAgents(runtime.registry, caller.gate.rules).map((d) => d.name);
    return names.length > 0 ? `Available: ${names.join(", ")}.` : "No agent is available to you.";
  };
  const definition = runtime.registry.get(type);
  if (definition === undefined) throw new ToolError(`Unknown subagent_type "${type}". ${available()}`);
  if (!isSubagent(definition)) {
    throw new ToolError(
      `Agent "${definition.name}" is a primary agent and cannot run as a subagent. ${available()}`,
    );
  }
  if (!canSpawn(caller.gate.rules, definition.name)) {
    throw new ToolError(
      `Your permission rules do not allow starting subagent "${definition.name}" (task:'${definition.name}' is denied). ${available()}`,
    );
  }
  return definition;
}

/** The call's model, else the definition's, else the caller's; `inherit` means the caller's. */
function resolveModel(
  runtime: SubagentRuntime,
  caller: CallerScope,
  definition: AgentDefinition,
  requested: string | undefined,
): Model {
  const id = requested ?? definition.model;
  if (id === undefined || id.trim().toLowerCase() === "inherit") return caller.model;
  try {
    return runtime.createModel(id.trim());
  } catch (error) {
    const source = requested === undefined ? `agent "${definition.name}"'s model` : "model";
    throw new ToolError(
      `Cannot use ${source} "${id}": ${error instanceof Error ? error.message : String(error)} Omit model to use ${requested === undefined ? "yours" : "the agent's default"}.`,
    );
  }
}

interface ChildIdentity {
  definition: AgentDefinition;
  model: Model;
  taskId: string;
  path: string[];
}

/** Builds the child's workspace, rules, tools, config and session. */
async function createChild(
  runtime: SubagentRuntime,
  caller: CallerScope,
  child: ChildIdentity,
  ctx: ToolContext,
): Promise<ChildRecord> {
  const { definition, model, taskId, path } = child;
  const depth = ctx.agent.depth + 1;
  let workspace: Awaited<ReturnType<typeof prepareChildWorkspace>>;
  let rules: ReturnType<typeof childRules>;
  try {
    rules = childRules(runtime.gate.rules, caller.gate.rules, definition);
    workspace = await prepareChildWorkspace({
      mode: definition.workspace?.mode ?? "shared",
      parentWorkspace: ctx.workspace,
      agentName: definition.name,
      taskId,
      ...(definition.workspace?.path === undefined ? {} : { path: definition.workspace.path }),
    });
  } catch (error) {
    if (error instanceof ChildWorkspaceError || error instanceof AgentPermissionError)
      throw new ToolError(error.message);
    throw error;
  }
  const gate = caller.gate.withRules(rules);
  const own = childTools({
    definition,
    parentTools: caller.tools,
    baseTools: runtime.baseTools(),
    rules,
    mayNest: depth < runtime.limits.maxDepth,
  });
  const scope: CallerScope = {
    tools: own.tools,
    gate,
    model,
    ops: caller.ops,
    ...(caller.toolOutputLimit === undefined ? {} : { toolOutputLimit: caller.toolOutputLimit }),
  };
  const config: AgentConfig = {
    name: definition.name,
    model,
    systemPrompt: systemPrompt(definition, workspace.path),
    tools: own.spawn ? [...own.tools, runtime.spawnToolFor(scope)] : own.tools,
    maxTurns: definition.maxTurns ?? runtime.limits.maxTurns,
    limits: {
      stallTimeoutMs: runtime.limits.stallTimeoutMs,
      ...(runtime.limits.maxTokens === undefined ? {} : { maxTokens: runtime.limits.maxTokens }),
    },
    workspace: workspace.path,
    ops: caller.ops,
    agentPath: path,
    depth,
    ask: gate,
    ...(caller.toolOutputLimit === undefined ? {} : { toolOutputLimit: caller.toolOutputLimit }),
    ...(definition.temperature === undefined ? {} : { temperature: definition.temperature }),
  };
  let session: Session;
  try {
    session = await Session.create({
      workspace: runtime.sessionsWorkspace,
      agentName: definition.name,
      model: model.id,
      parentSessionId: ctx.agent.sessionId,
      id: taskId,
      persist: runtime.persistSessions,
    });
  } catch (error) {
    await workspace.finish().catch(() => {});
    throw error;
  }
  return {
    taskId,
    definition,
    parentSessionId: ctx.agent.sessionId,
    config,
    session,
    workspace,
    running: false,
  };
}

function systemPrompt(definition: AgentDefinition, workspace: string): string {
  const preamble = PREAMBLE.replace("{{workspace}}", workspace);
  return [definition.prompt.trim(), preamble].filter((part) => part !== "").join("\n\n");
}
