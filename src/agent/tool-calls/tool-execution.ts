import type { AgentEvent } from "../../contracts/events.ts";
import type { ToolCallPart, ToolResultPart } from "../../model/messages.ts";
import type { PermissionRequest } from "../../permissions/types.ts";
import type { CommandPolicy } from "../../sandbox/policy.ts";
import type { Operations } from "../../tools/operations.ts";
import type { AgentIdentity, AnyTool, ToolContext } from "../../tools/tool.ts";
import { type AbortWatch, watchAbort } from "../abort.ts";
import type { EventBody } from "../emitter.ts";
import type { HookContext, Hooks } from "../hooks.ts";
import type { Redactor } from "./redact.ts";
import {
  ABORTED_RESULT,
  deniedMessage,
  invalidArgsMessage,
  malformedArgsMessage,
  thrownMessage,
  unknownToolMessage,
} from "./tool-call-errors.ts";
import { truncateToolOutput } from "./truncate.ts";

/** What executing the tool calls of one assistant message needs from the run. */
export interface ToolExecutionEnv {
  tools: readonly AnyTool[];
  hooks: readonly Hooks[];
  agent: AgentIdentity;
  turn: number;
  signal: AbortSignal;
  workspace: string;
  ops: Operations;
  commands: CommandPolicy | undefined;
  ask:
    | ((request: PermissionRequest, agent: AgentIdentity, signal?: AbortSignal) => Promise<void>)
    | undefined;
  toolOutputLimit: number;
  /** Applied to every tool output and progress line before anyone sees it. */
  redact: Redactor;
  /** Emits this agent's own events (the agent path is added). */
  emit: (event: EventBody) => void;
  /** The run's raw sink, handed to tools so subagents can bubble their own events up. */
  forward: (event: AgentEvent) => void;
  /** Ends the run after this step (`HookContext.stop`). */
  stop: (reason: string) => void;
}

const PREVIEW_CHARS = 300;
/** Calls started together before the event loop gets a turn (see `executeToolCalls`). */
const START_SLICE = 16;

/**
 * Runs all calls concurrently and returns their results in call order. Never throws: every failure
 * becomes an error result the model can act on. When the run is aborted, calls still running get an
 * "aborted" result at once, whether or not the tool honours the signal.
 */
export async function executeToolCalls(
  calls: readonly ToolCallPart[],
  env: ToolExecutionEnv,
): Promise<ToolResultPart[]> {
  const abort = watchAbort(env.signal);
  try {
    const running: Promise<ToolResultPart>[] = [];
    for (const [index, call] of calls.entries()) {
      // A message with hundreds of calls (a parent fanning out to hundreds of children) starts them
      // in slices, so their synchronous set-up cannot hold the event loop (timers, I/O) for long.
      if (index > 0 && index % START_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      running.push(executeOne(call, env, abort));
    }
    return await Promise.all(running);
  } finally {
    abort.dispose();
  }
}

async function executeOne(
  call: ToolCallPart,
  env: ToolExecutionEnv,
  abort: AbortWatch,
): Promise<ToolResultPart> {
  const started = Date.now();
  let settled = false;
  env.emit({ type: "tool_start", toolCallId: call.id, name: call.name, args: call.args });
  // The time a call waits for the permission gate (for a person's answer) is not its run time.
  const asking = new AskClock();
  const callEnv = { ...env, ask: asking.around(env.ask) };
  const outcome = await abort.race(
    // Schemas with custom refinements can throw too; nothing may reject Promise.all for the siblings.
    runCall(call, callEnv, () => settled).catch((error: unknown) => errorResult(call, thrownMessage(error))),
  );
  settled = true;
  const result = outcome === "aborted" ? errorResult(call, ABORTED_RESULT) : outcome;
  env.emit({
    type: "tool_end",
    toolCallId: call.id,
    name: call.name,
    isError: result.isError,
    preview: result.content.slice(0, PREVIEW_CHARS),
    durationMs: Math.max(0, Date.now() - started - asking.waitedMs()),
  });
  return result;
}

/** Adds up the time one call spends in permission asks (overlapping asks counted once). */
class AskClock {
  private pending = 0;
  private since = 0;
  private waited = 0;

  around(ask: ToolExecutionEnv["ask"]): ToolExecutionEnv["ask"] {
    if (ask === undefined) return undefined;
    return async (request, agent, signal) => {
      if (this.pending++ === 0) this.since = Date.now();
      try {
        await ask(request, agent, signal);
      } finally {
        if (--this.pending === 0) this.waited += Date.now() - this.since;
      }
    };
  }

  /** Time spent asking so far, an ask still pending included (the call was aborted during it). */
  waitedMs(): number {
    return this.waited + (this.pending > 0 ? Date.now() - this.since : 0);
  }
}

async function runCall(
  call: ToolCallPart,
  env: ToolExecutionEnv,
  isSettled: () => boolean,
): Promise<ToolResultPart> {
  const fail = (content: string) => errorResult(call, content);
  const tool = env.tools.find((candidate) => candidate.name === call.name);
  if (!tool)
    return fail(
      unknownToolMessage(
        call.name,
        env.tools.map((t) => t.name),
      ),
    );
  if (call.args === undefined) return fail(malformedArgsMessage(call));
  const parsed = tool.schema.safeParse(call.args);
  if (!parsed.success) return fail(invalidArgsMessage(call.name, parsed.error));

  const hookContext = {
    agent: env.agent,
    turn: env.turn,
    signal: env.signal,
    emit: env.emit,
    stop: env.stop,
  };
  let result: ToolResultPart;
  try {
    const verdict = await decide(call, tool, env, hookContext);
    if (verdict.denial !== undefined) {
      result = fail(verdict.denial);
    } else {
      let args: unknown = parsed.data;
      if (verdict.args !== undefined) {
        // A hook's replacement passes the same validation as the model's own arguments.
        const replaced = tool.schema.safeParse(verdict.args);
        if (!replaced.success)
          return fail(`A hook replaced the arguments, and ${invalidArgsMessage(call.name, replaced.error)}`);
        args = replaced.data;
      }
      const asking = { id: call.id, name: call.name, args };
      const output = await tool.execute(args, toolContext(call, env, isSettled, verdict.approved, asking));
      const content = typeof output === "string" ? output : output.content;
      result = { type: "tool_result", toolCallId: call.id, toolName: call.name, content, isError: false };
      const images = typeof output === "string" ? undefined : output.images;
      if (images !== undefined && images.length > 0) result.images = images;
    }
  } catch (error) {
    result = fail(thrownMessage(error));
  }

  for (const hooks of env.hooks) {
    if (env.signal.aborted) break;
    try {
      result = (await hooks.afterToolCall?.({ ...hookContext, call, result })) ?? result;
    } catch (error) {
      result = fail(`afterToolCall hook failed: ${thrownMessage(error)}`);
    }
  }

  const truncated = await truncateToolOutput({
    text: env.redact(result.content),
    limit: env.toolOutputLimit,
    workspace: env.workspace,
    ops: env.ops,
    sessionId: env.agent.sessionId,
    toolCallId: call.id,
  });
  return { ...result, content: truncated.text };
}

/** What the `beforeToolCall` hooks decided together. */
interface Verdict {
  /** Why the call is refused (the first deny wins). */
  denial?: string;
  /** The arguments the call runs with instead (the last hook's that gave some). */
  args?: unknown;
  /** A hook approved the call: its own permission prompts are answered (`ToolDecision`). */
  approved: boolean;
}

/** Runs the `beforeToolCall` hooks in order; the first deny wins. */
async function decide(
  call: ToolCallPart,
  tool: AnyTool,
  env: ToolExecutionEnv,
  hookContext: Omit<HookContext, "turn"> & { turn: number },
): Promise<Verdict> {
  const verdict: Verdict = { approved: false };
  for (const hooks of env.hooks) {
    const decision = await hooks.beforeToolCall?.({ ...hookContext, call, tool });
    if (!decision) continue;
    if (decision.action === "deny") return { denial: deniedMessage(decision.reason), approved: false };
    if (decision.args !== undefined) verdict.args = decision.args;
    if (decision.action === "allow") {
      if (decision.approve === true) verdict.approved = true;
      continue;
    }
    // "ask": the user decides through the permission gate, which throws PermissionDeniedError on reject.
    const raw = decision.args === undefined ? call.rawArgs : JSON.stringify(decision.args);
    const summary = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
    const why = decision.reason === undefined ? "" : ` (${decision.reason})`;
    await env.ask?.(
      { permission: call.name, patterns: [summary], title: `${call.name} ${summary}${why}` },
      env.agent,
      env.signal,
    );
  }
  return verdict;
}

function toolContext(
  call: ToolCallPart,
  env: ToolExecutionEnv,
  isSettled: () => boolean,
  approved: boolean,
  asking: NonNullable<PermissionRequest["call"]>,
): ToolContext {
  return {
    workspace: env.workspace,
    ops: env.ops,
    ...(env.commands === undefined ? {} : { commands: env.commands }),
    signal: env.signal,
    ask: (request) =>
      env.ask
        ? env.ask(
            { ...request, call: asking, ...(approved ? { approvedByHook: true } : {}) },
            env.agent,
            env.signal,
          )
        : Promise.resolve(),
    progress: (update) => {
      // A tool that ignores the abort may keep reporting after its result was settled; drop that.
      if (!isSettled())
        env.emit({ type: "tool_progress", toolCallId: call.id, name: call.name, update: env.redact(update) });
    },
    emit: env.forward,
    agent: env.agent,
    toolCallId: call.id,
  };
}

function errorResult(call: ToolCallPart, content: string): ToolResultPart {
  return { type: "tool_result", toolCallId: call.id, toolName: call.name, content, isError: true };
}
