import { Session } from "../agent/session.ts";
import { newSessionId } from "../agent/session-id.ts";
import { type AgentDefinition, isSubagent } from "../agents/definition.ts";
import type { Model } from "../model/model.ts";
import { canSpawn } from "../permissions/derive.ts";
import { type ToolContext, ToolError, type ToolResult } from "../tools/tool.ts";
import type { CallerScope } from "./caller-scope.ts";
import { buildChild } from "./child-config.ts";
import { ChildExecution } from "./child-execution.ts";
import { type ForkMode, forkHistory, parseForkMode } from "./fork.ts";
import { ownChild, refuseAtDepthLimit } from "./own-child.ts";
import { DEFAULT_SUBAGENT_TYPE, spawnableAgents } from "./spawnable-agents.ts";
import type { ChildRecord, SubagentRuntime } from "./subagent-runtime.ts";
import { awaitChild, startedInBackground } from "./sync-wait.ts";
import { newChildTask } from "./task-records.ts";
import type { TaskArgs } from "./tools/task.ts";

/** One `task` call: continue the child named by `task_id`, or start a new one. */
export async function runTask(
  runtime: SubagentRuntime,
  caller: CallerScope,
  args: TaskArgs,
  ctx: ToolContext,
): Promise<ToolResult> {
  refuseAtDepthLimit(runtime, ctx);
  if (args.task_id === undefined) return startChild(runtime, caller, args, ctx);
  const record = await ownChild(runtime, caller, args.task_id, ctx, "continue");
  if (record.running) {
    throw new ToolError(
      `Subagent ${record.taskId} is still running; wait for its result before sending it more work ` +
        "(task_wait), or queue a message for its next turn with task_send.",
    );
  }
  return continueChild(runtime, record, args.prompt, args.description, args.run_in_background, ctx);
}

/**
 * Runs a child that is not running on `prompt` with its whole history. In the background it returns
 * at once; otherwise the caller waits for its reply (promoted to the background past the timeout).
 */
export function continueChild(
  runtime: SubagentRuntime,
  record: ChildRecord,
  prompt: string,
  description: string,
  runInBackground: boolean | undefined,
  ctx: ToolContext,
): Promise<ToolResult> {
  const background = runInBackground ?? record.background;
  record.background = background;
  const execution = new ChildExecution(runtime, record, {
    prompt,
    description,
    parentSignal: ctx.signal,
    emit: ctx.emit,
    progress: ctx.progress,
    attached: !background,
    continuation: true,
  });
  if (background) return Promise.resolve(startedInBackground(record, "continued"));
  return awaitChild(runtime, record, execution);
}

async function startChild(
  runtime: SubagentRuntime,
  caller: CallerScope,
  args: TaskArgs,
  ctx: ToolContext,
): Promise<ToolResult> {
  const definition = resolveDefinition(runtime, caller, args.subagent_type ?? DEFAULT_SUBAGENT_TYPE);
  const fork = resolveFork(definition, args.fork);
  await ctx.ask({
    permission: "task",
    patterns: [definition.name],
    title: `start subagent ${definition.name}: ${args.description}`,
  });
  const model = resolveModel(runtime, caller, definition, args.model);
  runtime.reserveDescendant();
  const background = args.run_in_background ?? definition.background ?? false;
  const taskId = newSessionId({ prefix: "sub" });
  let record: ChildRecord;
  try {
    record = await buildChild(
      runtime,
      caller,
      {
        definition,
        model,
        taskId,
        description: args.description,
        path: [...ctx.agent.path, `${definition.name}-${runtime.nextNumber(definition.name)}`],
        depth: ctx.agent.depth + 1,
        parentWorkspace: ctx.workspace,
        parentSessionId: ctx.agent.sessionId,
        parentAgentId: ctx.agent.path.at(-1) ?? "main",
        background,
      },
      () =>
        Session.create({
          workspace: runtime.sessionsWorkspace,
          agentName: definition.name,
          model: model.id,
          parentSessionId: ctx.agent.sessionId,
          id: taskId,
          persist: runtime.persistSessions,
        }),
    );
  } catch (error) {
    runtime.releaseDescendant();
    throw error;
  }
  // With a slot free now, the record is created RUNNING: one store write before the child's first
  // model call instead of two (PENDING, then RUNNING), and it never shows PENDING while it works.
  const slot = runtime.tryAcquireSlot();
  try {
    await runtime.store.create(newChildTask(record, runtime.owner, slot !== undefined));
  } catch (error) {
    slot?.();
    runtime.releaseDescendant();
    await record.workspace.finish().catch(() => {});
    throw error;
  }
  runtime.remember(record);
  for (const message of forkHistory(runtime.transcriptOf(ctx.agent.sessionId) ?? [], fork))
    await record.session.append(message);
  const execution = new ChildExecution(runtime, record, {
    prompt: args.prompt,
    description: args.description,
    parentSignal: ctx.signal,
    emit: ctx.emit,
    progress: ctx.progress,
    attached: !background,
    continuation: false,
    ...(slot === undefined ? {} : { slot }),
  });
  if (background) return startedInBackground(record, "started");
  return awaitChild(runtime, record, execution);
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
  if (definition.url !== undefined) {
    throw new ToolError(
      `Agent "${definition.name}" is a remote (A2A) agent at ${definition.url}; remote subagents are not supported in this version. ${available()}`,
    );
  }
  if (!canSpawn(caller.gate.rules, definition.name)) {
    throw new ToolError(
      `Your permission rules do not allow starting subagent "${definition.name}" (task:'${definition.name}' is denied). ${available()}`,
    );
  }
  return definition;
}

/** The call's `fork`, else the definition's, else none (a fresh context). */
function resolveFork(definition: AgentDefinition, requested: TaskArgs["fork"]): ForkMode {
  try {
    return parseForkMode(requested) ?? definition.fork ?? "none";
  } catch (error) {
    throw new ToolError(error instanceof Error ? error.message : String(error));
  }
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
