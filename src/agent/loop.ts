import type { AgentEvent } from "../contracts/events.ts";
import type { Outcome, OutcomeEnd } from "../contracts/outcome.ts";
import { isAgentryError } from "../errors/agentry-error.ts";
import {
  addUsage,
  assistantText,
  emptyUsage,
  type ToolResultMessage,
  toolCalls,
  type Usage,
  type UserMessage,
} from "../model/messages.ts";
import { errorMessage } from "../text/error-message.ts";
import type { AgentIdentity } from "../tools/tool.ts";
import { abortReason } from "./abort.ts";
import { type AgentConfig, DEFAULT_MAX_TURNS, DEFAULT_TOOL_OUTPUT_LIMIT } from "./config.ts";
import { type EventBody, pathEmitter } from "./emitter.ts";
import { emptyReplyError } from "./empty-reply.ts";
import { capacityHolds } from "./limits/capacity-holds.ts";
import { type LimitWatch, RunLimitExceeded, watchLimits } from "./limits/run-limits.ts";
import { PromptEstimator, tokensOfChars } from "./limits/token-estimate.ts";
import { streamAssistantMessage } from "./model-turn.ts";
import { prepareRequest, toolSpecs } from "./request.ts";
import { closeToolCalls, interruptedToolResults } from "./session/repair.ts";
import type { Session } from "./session/session.ts";
import { NOT_RUN_RESULT, TURN_LIMIT_RESULT } from "./tool-calls/tool-call-errors.ts";
import { executeToolCalls, type ToolExecutionEnv } from "./tool-calls/tool-execution.ts";

/**
 * Runs an agent on a session until the model stops calling tools or a limit hits. The session must
 * end with something for the model to answer (a user message or tool results); the caller appends the
 * user's prompt first. Every event goes to `emit`; the returned promise never rejects.
 */
export async function runAgentLoop(
  config: AgentConfig,
  session: Session,
  emit: (event: AgentEvent) => void,
  outerSignal: AbortSignal = new AbortController().signal,
): Promise<Outcome> {
  const started = Date.now();
  const agentPath = config.agentPath ?? ["main"];
  // One signal for "stop now": the caller's abort, a budget, or the stall watchdog.
  const limits = watchLimits(outerSignal, config.limits);
  const signal = limits.signal;
  const waits = capacityHolds(agentPath, limits.hold);
  const events = pathEmitter((event) => {
    waits.observe(event);
    limits.touch();
    emit(event);
  }, agentPath);
  const send = events.emit;
  const agent: AgentIdentity = {
    path: agentPath,
    name: config.name,
    sessionId: session.id,
    depth: config.depth ?? 0,
  };
  const maxTurns = config.maxTurns ?? DEFAULT_MAX_TURNS;
  const hooks = config.hooks ?? [];
  let usage = emptyUsage();
  let turns = 0;
  let text = "";
  const estimator = new PromptEstimator(config.model.id);
  // Set by a hook (`HookContext.stop`): the run ends once the step in progress is over.
  let stopReason: string | undefined;
  const stop = (reason: string) => {
    stopReason ??= reason;
  };

  const finish = async (end: OutcomeEnd): Promise<Outcome> => {
    for (const hook of hooks) {
      try {
        await hook.onRunEnd?.({ agent, signal, status: end.status, emit: send });
      } catch (error) {
        const message = `an onRunEnd hook failed: ${errorMessage(error)}`;
        await session.record({ type: "error", message }).catch(() => {});
      }
    }
    const outcome = { text, turns, usage, durationMs: Date.now() - started, sessionId: session.id, ...end };
    await session.record({ type: "outcome", outcome }).catch(() => {});
    send({ type: "agent_end", outcome });
    return outcome;
  };
  const abort = async (while_: string): Promise<Outcome> => {
    const limit: unknown = signal.reason;
    if (limit instanceof RunLimitExceeded) {
      await session.record({ type: "error", message: `${limit.message} (${while_})` }).catch(() => {});
      return limit.limit === "stall"
        ? finish({ status: "error", error: limit.message, reason: "stalled" })
        : finish({ status: "budget_exceeded", reason: limit.message, budget: limit.limit });
    }
    const reason = abortReason(signal);
    await session.record({ type: "abort", message: `${reason} (${while_})` }).catch(() => {});
    return finish({ status: "aborted", reason });
  };
  const fail = async (error: string): Promise<Outcome> => {
    await session.record({ type: "error", message: error }).catch(() => {});
    return finish({ status: "error", error });
  };
  const appendInjected = async (messages: UserMessage[]) => {
    for (const message of messages) {
      await session.append(message);
      send({ type: "user_message", message });
    }
  };

  const start: EventBody = {
    type: "agent_start",
    sessionId: session.id,
    agentType: config.name,
    model: config.model.id,
  };
  if (session.parentSessionId !== undefined) start.parentSessionId = session.parentSessionId;
  send(start);

  try {
    if (!Number.isInteger(maxTurns) || maxTurns < 1)
      return await fail(`maxTurns must be a whole number ≥ 1, got ${maxTurns}.`);
    const repaired = interruptedToolResults(session.messages);
    if (repaired) await appendResults(session, repaired, send);
    const last = session.messages.at(-1);
    if (!last)
      return await fail("The session has no messages: append the user's prompt before running the agent.");
    if (last.role === "assistant") {
      return await fail("The session ends with the assistant's reply: append a user message to continue it.");
    }

    const tools = toolSpecs(config.tools);
    const env: Omit<ToolExecutionEnv, "turn"> = {
      tools: config.tools,
      hooks,
      agent,
      signal,
      workspace: config.workspace,
      ops: config.ops,
      commands: config.commands,
      ask: config.ask,
      toolOutputLimit: config.toolOutputLimit ?? DEFAULT_TOOL_OUTPUT_LIMIT,
      redact: config.redact ?? ((text) => text),
      emit: send,
      forward: events.forward,
      stop,
    };
    const stopped = () =>
      finish({ status: "completed", ...(stopReason === undefined ? {} : { stopReason }) });

    while (true) {
      if (signal.aborted) return await abort("before the model call");
      const turn = ++turns;
      const lastTurn = turn >= maxTurns;
      send({ type: "turn_start", turn });
      const { request, extraTools } = await prepareRequest({
        config,
        session,
        agent,
        turn,
        lastTurn,
        tools,
        signal,
        emit: send,
        stop,
        spend: (spent) => {
          usage = addUsage(usage, spent);
        },
      });
      // Budgets hold during the call: its estimate (prompt, then output as it streams) is checked here
      // and reported to whoever watches the whole tree; a call whose prompt alone would pass a budget
      // is not made.
      if (stopReason !== undefined) {
        send({ type: "turn_end", turn, usage: emptyUsage() });
        return await stopped();
      }
      const prompt = estimator.estimate(request);
      const estimate = callEstimate(prompt.tokens, usage, limits, send);
      if (signal.aborted) {
        send({ type: "turn_end", turn, usage: emptyUsage() });
        return await abort("before the model call");
      }
      const message = await streamAssistantMessage(config.model, request, signal, send, estimate.output);
      usage = addUsage(usage, message.usage);
      if (message.stopReason === "aborted" || (message.stopReason === "error" && signal.aborted)) {
        send({ type: "turn_end", turn, usage: message.usage });
        return await abort("during the model call");
      }
      if (message.stopReason === "error") {
        send({ type: "turn_end", turn, usage: message.usage });
        return await fail(message.errorMessage ?? "the model call failed");
      }
      estimator.calibrate(prompt.chars, message.usage);
      await session.append(message);
      send({ type: "assistant_message", message });
      text = assistantText(message);
      const calls = toolCalls(message);
      limits.checkUsage(usage);
      // A reply without tool calls is the answer, delivered: a limit that trips on it (this very reply
      // passed a budget) no longer changes how the run ended. Calls it asked for are not run.
      if (signal.aborted && calls.length > 0) {
        await appendResults(session, closeToolCalls(calls, NOT_RUN_RESULT), send);
        send({ type: "turn_end", turn, usage: message.usage });
        return await abort("after the model call");
      }

      if (calls.length > 0 && lastTurn) {
        // Close the calls so the transcript stays valid for a later resume.
        await appendResults(session, closeToolCalls(calls, TURN_LIMIT_RESULT), send);
        send({ type: "turn_end", turn, usage: message.usage });
        return await finish({ status: "max_turns" });
      }
      if (calls.length > 0) {
        const results = await executeToolCalls(calls, { ...env, tools: [...env.tools, ...extraTools], turn });
        await appendResults(session, { role: "tool_result", content: results }, send);
      }
      send({ type: "turn_end", turn, usage: message.usage });
      if (signal.aborted && calls.length > 0) return await abort("while tools were running");
      if (stopReason !== undefined) return await stopped();

      const injected: UserMessage[] = [];
      for (const hook of hooks) {
        const result = await hook.onTurnEnd?.({
          agent,
          turn,
          signal,
          emit: send,
          stop,
          toolCallsMade: calls.length > 0,
          finalText: text,
        });
        injected.push(...(result?.inject ?? []));
      }
      await appendInjected(injected);
      if (stopReason !== undefined) return await stopped();
      if (calls.length === 0 && injected.length === 0) {
        const empty = emptyReplyError(message);
        return await (empty === undefined ? finish({ status: "completed" }) : fail(empty));
      }
      if (lastTurn) return await finish({ status: "max_turns" });
    }
  } catch (error) {
    // Hooks and transcript writes can throw; the run still ends with an outcome. agentry's own errors
    // (a full disk) say what happened as they are; anything else is a bug.
    return fail(isAgentryError(error) ? error.message : `internal error: ${errorMessage(error)}`);
  } finally {
    waits.dispose();
    limits.dispose();
  }
}

/** How often (in estimated tokens) a streaming call reports its growing estimate. */
const ESTIMATE_STEP = 50;

/**
 * Reports a call's estimate as it starts (its prompt) and as its output streams, and checks the run's
 * own token budget against it at every step.
 */
function callEstimate(
  promptTokens: number,
  usage: Usage,
  limits: LimitWatch,
  send: (event: EventBody) => void,
): { output: (chars: number) => void } {
  let outputChars = 0;
  let reported = promptTokens;
  send({ type: "usage_estimate", tokens: promptTokens });
  limits.checkEstimate(usage, promptTokens);
  return {
    output(chars) {
      outputChars += chars;
      const tokens = promptTokens + tokensOfChars(outputChars);
      if (tokens - reported >= ESTIMATE_STEP) {
        reported = tokens;
        send({ type: "usage_estimate", tokens });
      }
      limits.checkEstimate(usage, tokens);
    },
  };
}

async function appendResults(
  session: Session,
  message: ToolResultMessage,
  send: (event: EventBody) => void,
): Promise<void> {
  await session.append(message);
  send({ type: "tool_results", message });
}
