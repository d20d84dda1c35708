import { readFileSync } from "node:fs";
import { assistantText, emptyUsage, type Message, type Usage, userText } from "../../model/messages.ts";
import type { ModelRequest, ToolSpec } from "../../model/model.ts";
import type { EventBody } from "../emitter.ts";
import { streamAssistantMessage } from "../model-turn.ts";
import { pairToolCalls } from "../session/repair.ts";
import type { Session } from "../session/session.ts";
import { truncateMiddle } from "../tool-calls/truncate.ts";
import type { CompactionDecision } from "./compaction.ts";
import { compactionReferences, formatReferences } from "./compaction-notes.ts";
import { messagesTokens } from "./context-size.ts";

const PROMPT = readFileSync(new URL("./compaction-prompt.md", import.meta.url), "utf8").trim();
const FOCUS = readFileSync(new URL("./compaction-focus.md", import.meta.url), "utf8").trim();
const SUMMARY = readFileSync(new URL("./compaction-summary.md", import.meta.url), "utf8").trim();

/**
 * The longest summary asked for: 8,192 tokens, or an eighth of the summary model's window when that is
 * less. One cut off at it is not used: its missing end may be what mattered.
 */
export function summaryMaxTokens(window: number): number {
  return Math.max(256, Math.min(8_192, Math.floor(window / 8)));
}

/** Tool outputs are shortened to these sizes, in turn, when the turns to summarize exceed the summary model's window. */
const TOOL_OUTPUT_CAPS = [8_000, 2_000, 400];

export interface CompactionEnv {
  session: Session;
  /** The agent's system prompt and tools, sent with the summary request: the history reads as the agent's. */
  system: string;
  tools: readonly ToolSpec[];
  signal: AbortSignal;
  emit: (event: EventBody) => void;
}

export type CompactionResult =
  | { status: "compacted"; usage: Usage }
  | { status: "failed"; usage: Usage }
  | { status: "aborted"; usage: Usage };

/**
 * Carries out a compaction decision: asks `decision.model` to summarize `messages[0, cut)` (sent as
 * they are, then the instruction of `compaction-prompt.md`), and replaces them by the summary with the
 * task ids and files they mention (`Session.compact`, which records it). `compaction_start`, then
 * `compacted` or `compaction_failed`, say what happened; on any failure the history is left exactly as
 * it was. Never throws for the model's sake; a transcript that cannot be written throws.
 */
export async function applyCompaction(
  decision: CompactionDecision,
  env: CompactionEnv,
): Promise<CompactionResult> {
  const { session, emit } = env;
  if (decision.action === "report") {
    emit({
      type: "compaction_failed",
      trigger: decision.trigger,
      reason: decision.reason,
      error: decision.error,
      tokens: decision.tokens,
      contextWindow: decision.contextWindow,
      usage: emptyUsage(),
    });
    return { status: "failed", usage: emptyUsage() };
  }
  const { cut, size, contextWindow, trigger } = decision;
  const started = Date.now();
  const head = session.messages.slice(0, cut);
  emit({ type: "compaction_start", trigger, tokens: size.tokens, contextWindow, messages: cut });
  const fail = (reason: "model_error" | "too_large", error: string, usage: Usage): CompactionResult => {
    emit({
      type: "compaction_failed",
      trigger,
      reason,
      error,
      tokens: size.tokens,
      contextWindow,
      usage,
    });
    return { status: "failed", usage };
  };

  const maxOutputTokens = summaryMaxTokens(decision.summaryWindow);
  const request = fitRequest(
    {
      system: env.system,
      tools: [...env.tools],
      messages: [...pairToolCalls(head), userText(instruction(decision.focus))],
      maxOutputTokens,
    },
    decision.summaryWindow,
    size.tokensPerChar,
  );
  if (request === undefined) {
    return fail(
      "too_large",
      `the ${cut} messages to summarize do not fit ${decision.model.id}'s context window (${decision.summaryWindow} tokens), even with tool outputs shortened; set compaction.model to a model with a larger window`,
      emptyUsage(),
    );
  }
  // The summary is not the agent's answer: only news about the call (retries, waits) is passed on.
  const relay = (event: EventBody) => {
    if (event.type === "retry" || event.type === "capacity_wait" || event.type === "capacity_granted")
      emit(event);
  };
  const reply = await streamAssistantMessage(decision.model, request, env.signal, relay);
  const { usage } = reply;
  if (reply.stopReason === "aborted" || env.signal.aborted) return { status: "aborted", usage };
  if (reply.stopReason === "error") {
    return fail("model_error", `the summary call failed: ${reply.errorMessage ?? "unknown error"}`, usage);
  }
  if (reply.stopReason === "length") {
    return fail(
      "model_error",
      `the summary was cut off at ${maxOutputTokens} tokens, so it was not used`,
      usage,
    );
  }
  const written = assistantText(reply).trim();
  if (written === "") return fail("model_error", "the model wrote no summary", usage);

  const summary = summaryText(written, head);
  const kept = session.messages.length - cut;
  const after: Message[] = [userText(summary), ...session.messages.slice(cut)];
  const tokensAfter = size.fixedTokens + messagesTokens(after, 0, after.length, size.tokensPerChar);
  await session.compact({
    summary,
    replaced: cut,
    kept,
    trigger,
    tokensBefore: size.tokens,
    tokensAfter,
    model: decision.model.id,
    usage,
  });
  emit({
    type: "compacted",
    trigger,
    tokensBefore: size.tokens,
    tokensAfter,
    contextWindow,
    replacedMessages: cut,
    keptMessages: kept,
    summary,
    model: decision.model.id,
    usage,
    durationMs: Date.now() - started,
  });
  return { status: "compacted", usage };
}

/**
 * Whether a request is a compaction's summary call (its last message is the instruction), so a
 * scripted model in a test can answer it as a summarizer.
 */
export function isCompactionRequest(request: ModelRequest): boolean {
  const last = request.messages.at(-1);
  return (
    last?.role === "user" && last.content.some((part) => part.type === "text" && part.text.startsWith(PROMPT))
  );
}

function instruction(focus: string | undefined): string {
  const wanted = focus?.trim();
  return wanted ? `${PROMPT}\n\n${FOCUS.replace("{{focus}}", wanted)}` : PROMPT;
}

/** The message that takes the replaced messages' place: the summary, and what they referenced. */
function summaryText(summary: string, replaced: readonly Message[]): string {
  const text = SUMMARY.replace("{{replaced}}", String(replaced.length)).replace("{{summary}}", summary);
  const references = formatReferences(compactionReferences(replaced));
  return references === "" ? text : `${text}\n\n${references}`;
}

/**
 * The request as it is when it fits the summary model's window (with room for the summary), else with
 * ever shorter tool outputs; undefined when even the shortest do not fit.
 */
function fitRequest(request: ModelRequest, window: number, tokensPerChar: number): ModelRequest | undefined {
  const room = window * 0.95 - (request.maxOutputTokens ?? 0);
  const fits = (candidate: ModelRequest) =>
    (candidate.system.length + JSON.stringify(candidate.tools).length) * tokensPerChar +
      messagesTokens(candidate.messages, 0, candidate.messages.length, tokensPerChar) <=
    room;
  if (fits(request)) return request;
  for (const cap of TOOL_OUTPUT_CAPS) {
    const shortened = { ...request, messages: request.messages.map((m) => shortenToolOutputs(m, cap)) };
    if (fits(shortened)) return shortened;
  }
  return undefined;
}

function shortenToolOutputs(message: Message, cap: number): Message {
  if (message.role !== "tool_result") return message;
  return {
    role: "tool_result",
    content: message.content.map((part) => ({
      ...part,
      content: truncateMiddle(
        part.content,
        cap,
        ({ chars }) => `\n[… ${chars} characters left out of this output for the summary …]\n`,
      ).text,
    })),
  };
}
