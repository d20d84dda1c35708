import { Session } from "../../agent/session/session.ts";
import { newSessionId } from "../../agent/session/session-id.ts";
import type { AgentRegistry } from "../../agents/agent-registry.ts";
import { type AgentDefinition, isSubagent } from "../../agents/definition.ts";
import type { ImagePart } from "../../model/messages.ts";
import type { Model } from "../../model/model.ts";
import { canSpawn } from "../../permissions/derive.ts";
import { errorMessage } from "../../text/error-message.ts";
import { type ToolContext, ToolError, type ToolResult } from "../../tools/tool.ts";
import { Child } from "../child/child.ts";
import { childKind } from "../child/child-config.ts";
import { type ForkMode, forkHistory, parseForkMode } from "../child/fork.ts";
import type { ChildRunReport } from "../report/child-run-report.ts";
import { type OpenedChild, placeChild } from "../run/child-placement.ts";
import { runChild } from "../run/run-child.ts";
import type { CallerScope } from "../tree/caller-scope.ts";
import type { ProgramChildren, TaskRequest } from "../tree/task-api.ts";
import { ownChild, refuseAtDepthLimit } from "./own-child.ts";
import type { SpawnDeps } from "./spawn-deps.ts";
import { DEFAULT_SUBAGENT_TYPE, spawnableAgents } from "./spawnable-agents.ts";
import { awaitChild, startedInBackground } from "./sync-wait.ts";

/** One `task` call: continue the child named by `taskId`, or start a new one. */
export async function runTask(
  deps: SpawnDeps,
  caller: CallerScope,
  request: TaskRequest,
  ctx: ToolContext,
): Promise<ToolResult> {
  if (request.taskId === undefined) return startChild(deps, caller, request, ctx);
  const child = await ownChild(deps, caller, request.taskId, ctx, "continue");
  if (child.active) {
    throw new ToolError(
      `Subagent ${child.taskId} is still running; wait for its result before sending it more work ` +
        "(task_wait), or queue a message for its next turn with task_send.",
    );
  }
  return continueChild(
    deps,
    child,
    request.prompt,
    request.description,
    request.background,
    ctx,
    request.images,
  );
}

/**
 * Runs a child that is not working on `prompt` with its whole history. In the background it returns
 * at once; otherwise the caller waits for its reply (promoted to the background past the timeout).
 */
export function continueChild(
  deps: SpawnDeps,
  child: Child,
  prompt: string,
  description: string,
  runInBackground: boolean | undefined,
  ctx: ToolContext,
  images?: readonly ImagePart[],
): Promise<ToolResult> {
  const background = runInBackground ?? child.background;
  // The transition and the run start in one synchronous step: no other call can continue it too.
  const reopened = child.continue(background);
  const done = runChild(
    child,
    {
      prompt,
      ...(images === undefined ? {} : { images }),
      description,
      parentSignal: ctx.signal,
      emit: ctx.emit,
      progress: ctx.progress,
      reopened,
    },
    deps.run,
  );
  if (background) return Promise.resolve(startedInBackground(child, "continued"));
  return awaitChild(deps.timeoutMs, child, done);
}

async function startChild(
  deps: SpawnDeps,
  caller: CallerScope,
  request: TaskRequest,
  ctx: ToolContext,
): Promise<ToolResult> {
  const { child, done } = await launchChild(deps, caller, request, ctx);
  if (child.background) return startedInBackground(child, "started");
  return awaitChild(deps.timeoutMs, child, done);
}

/**
 * The children of `caller` as a program rather than a model (a workflow's `agent()`) runs them: the
 * child `task` would start — the caller's rules, sandbox and limits, its record, its events in the
 * caller's stream, refused past the depth limit — but the caller waits for its outcome however long it
 * takes (no promotion to the background) and gets the report itself.
 */
export function programChildren(deps: SpawnDeps, caller: CallerScope): ProgramChildren {
  return {
    runToEnd: (request, ctx) => {
      refuseAtDepthLimit(deps.build.limits.maxDepth, ctx);
      return runChildToEnd(deps, caller, request, ctx);
    },
    continueToEnd: (taskId, prompt, ctx) => continueToEnd(deps, caller, taskId, prompt, ctx),
  };
}

async function runChildToEnd(
  deps: SpawnDeps,
  caller: CallerScope,
  request: TaskRequest,
  ctx: ToolContext,
): Promise<ChildRunReport> {
  const { done } = await launchChild(deps, caller, { ...request, background: false }, ctx);
  return done;
}

/** Continues a child the caller ran to its end (a workflow's corrective turn), and waits for its next end. */
async function continueToEnd(
  deps: SpawnDeps,
  caller: CallerScope,
  taskId: string,
  prompt: string,
  ctx: ToolContext,
): Promise<ChildRunReport> {
  const child = await ownChild(deps, caller, taskId, ctx, "continue");
  if (child.active) throw new ToolError(`Subagent ${taskId} is still running.`);
  const reopened = child.continue(false);
  return runChild(
    child,
    {
      prompt,
      description: child.description,
      parentSignal: ctx.signal,
      emit: ctx.emit,
      progress: ctx.progress,
      reopened,
    },
    deps.run,
  );
}

async function launchChild(
  deps: SpawnDeps,
  caller: CallerScope,
  request: TaskRequest,
  ctx: ToolContext,
): Promise<{ child: Child; done: Promise<ChildRunReport> }> {
  const definition = narrowed(
    resolveDefinition(deps.registry, caller, request.subagentType ?? DEFAULT_SUBAGENT_TYPE),
    caller,
    request,
  );
  const remote = childKind(definition) === "remote";
  const fork = remote ? refuseForRemote(definition, request) : resolveFork(definition, request.fork);
  await ctx.ask({
    permission: "task",
    patterns: [definition.name],
    title: `start subagent ${definition.name}: ${request.description}`,
  });
  const model = remote ? undefined : resolveModel(deps, caller, definition, request.model);
  await deps.tree.reserveDescendant();
  const background = request.background ?? definition.background ?? false;
  const taskId = newSessionId({ prefix: "sub" });
  const agentPath = [...ctx.agent.path, deps.tree.nextName(definition.name)];
  let opened: OpenedChild;
  try {
    opened = await placeChild(
      deps,
      caller,
      {
        definition,
        ...(model === undefined ? {} : { model }),
        taskId,
        parentSessionId: ctx.agent.sessionId,
        path: agentPath,
        depth: ctx.agent.depth + 1,
        parentWorkspace: ctx.workspace,
      },
      {
        description: request.description,
        parentAgentId: ctx.agent.path.at(-1) ?? "main",
        session: (spec) =>
          Session.create({
            workspace: deps.sessionsWorkspace,
            agentName: spec.agent.name,
            model: spec.model,
            parentSessionId: ctx.agent.sessionId,
            id: taskId,
            persist: deps.persistSessions,
          }),
      },
    );
  } catch (error) {
    await deps.tree.releaseDescendant();
    throw error;
  }
  // With a slot free now, the record is created RUNNING: one store write before the child's first
  // model call instead of two (PENDING, then RUNNING), and it never shows PENDING while it works.
  const slot = deps.run.slots.tryAcquire();
  let child: Child;
  try {
    child = await Child.create(opened.identity, opened.executor, deps.records, {
      background,
      running: slot !== undefined,
    });
  } catch (error) {
    slot?.();
    await deps.tree.releaseDescendant();
    await opened.discard().catch(() => {});
    throw error;
  }
  deps.tree.add(child);
  for (const message of forkHistory(deps.tree.transcriptOf(ctx.agent.sessionId) ?? [], fork))
    await opened.session?.append(message);
  const done = runChild(
    child,
    {
      prompt: request.prompt,
      ...(request.images === undefined ? {} : { images: request.images }),
      description: request.description,
      parentSignal: ctx.signal,
      emit: ctx.emit,
      progress: ctx.progress,
      ...(slot === undefined ? {} : { slot }),
    },
    deps.run,
  );
  return { child, done };
}

/**
 * The definition as the call narrows it: fewer tools (never one its definition, or else its caller,
 * lacks) or another workspace mode.
 */
function narrowed(definition: AgentDefinition, caller: CallerScope, request: TaskRequest): AgentDefinition {
  const { tools, workspace } = request;
  let result = definition;
  if (tools !== undefined) {
    const pool = definition.tools ?? caller.tools.map((tool) => tool.name);
    result = { ...result, tools: pool.filter((name) => tools.includes(name)) };
  }
  if (workspace !== undefined) result = { ...result, workspace: { mode: workspace } };
  return result;
}

/**
 * A remote agent runs on its own model with its own history: a call that asks for another model or
 * for a fork of the caller's conversation is refused rather than silently ignored.
 */
function refuseForRemote(definition: AgentDefinition, request: TaskRequest): ForkMode {
  if (request.model !== undefined)
    throw new ToolError(
      `Agent "${definition.name}" is a remote (A2A) agent at ${definition.url}: it runs on its own server's model, so model cannot be chosen. Call it again without model.`,
    );
  if (request.fork !== undefined && resolveFork(definition, request.fork) !== "none")
    throw new ToolError(
      `Agent "${definition.name}" is a remote (A2A) agent at ${definition.url}: it cannot see your conversation, so it cannot be forked. Call it again without fork, with a prompt that says everything it needs.`,
    );
  return "none";
}

function resolveDefinition(registry: AgentRegistry, caller: CallerScope, type: string): AgentDefinition {
  const available = () => {
    const names = spawnableAgents(registry, caller.gate.rules).map((d) => d.name);
    return names.length > 0 ? `Available: ${names.join(", ")}.` : "No agent is available to you.";
  };
  const definition = registry.get(type);
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
  if (definition.unavailable !== undefined)
    throw new ToolError(`${definition.unavailable}, so it cannot run. ${available()}`);
  return definition;
}

/** The call's `fork`, else the definition's, else none (a fresh context). */
function resolveFork(definition: AgentDefinition, requested: TaskRequest["fork"]): ForkMode {
  try {
    return parseForkMode(requested) ?? definition.fork ?? "none";
  } catch (error) {
    throw new ToolError(errorMessage(error));
  }
}

/** The call's model, else the definition's, else the caller's; `inherit` means the caller's. */
function resolveModel(
  deps: Pick<SpawnDeps, "createModel">,
  caller: CallerScope,
  definition: AgentDefinition,
  requested: string | undefined,
): Model {
  const id = requested ?? definition.model;
  if (id === undefined || id.trim().toLowerCase() === "inherit") return caller.model;
  try {
    return deps.createModel(id.trim());
  } catch (error) {
    const source = requested === undefined ? `agent "${definition.name}"'s model` : "model";
    throw new ToolError(
      `Cannot use ${source} "${id}": ${errorMessage(error)} Omit model to use ${requested === undefined ? "yours" : "the agent's default"}.`,
    );
  }
}
