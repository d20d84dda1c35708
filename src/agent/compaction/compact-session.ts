import { contextWindowOf } from "../../model/context-windows.ts";
import type { Model, ToolSpec } from "../../model/model.ts";
import type { EventBody } from "../emitter.ts";
import type { Session } from "../session/session.ts";
import { applyCompaction, type CompactionResult } from "./compact-history.ts";
import { DEFAULT_COMPACTION_THRESHOLD } from "./compaction.ts";
import { planCompaction } from "./compaction-plan.ts";
import { measureContext } from "./context-size.ts";

export interface CompactSessionOptions {
  session: Session;
  /** The agent's system prompt and tools, as its calls send them. */
  system: string;
  tools: readonly ToolSpec[];
  /** The agent's model: whose window the prompt is measured against, and the summary's default author. */
  model: Model;
  /** Default `model`. */
  summaryModel?: Model;
  /** Default `contextWindowOf`. */
  contextWindow?: (modelId: string) => number;
  /** Assistant turns kept verbatim (default 1: only the latest). */
  keepTurns?: number;
  /** What the summary should dwell on. */
  focus?: string;
  signal?: AbortSignal;
  /** `compaction_start`, then `compacted` or `compaction_failed`. */
  emit: (event: EventBody) => void;
}

/**
 * Compacts a session now, whatever its size (`/compact`): the older turns are replaced by a summary,
 * as automatic compaction does. The summary call's usage is in the result (no run counts it).
 */
export async function compactSession(options: CompactSessionOptions): Promise<CompactionResult> {
  const { session, model } = options;
  const windowOf = options.contextWindow ?? ((id: string) => contextWindowOf(id));
  const contextWindow = windowOf(model.id);
  const size = measureContext({
    system: options.system,
    tools: options.tools,
    messages: session.messages,
    measuredFrom: session.measuredFrom,
  });
  const plan = planCompaction(session.messages, {
    keepTurns: options.keepTurns ?? 1,
    size,
    target: Math.floor((contextWindow * DEFAULT_COMPACTION_THRESHOLD) / 2),
  });
  const summaryModel = options.summaryModel ?? model;
  const env = {
    session,
    system: options.system,
    tools: options.tools,
    signal: options.signal ?? new AbortController().signal,
    emit: options.emit,
  };
  if (plan.kind === "cannot_shrink") {
    return applyCompaction(
      {
        action: "report",
        trigger: "manual",
        reason: "cannot_shrink",
        error: `nothing to compact yet: ${plan.reason}`,
        tokens: size.tokens,
        contextWindow,
      },
      env,
    );
  }
  const focus = options.focus?.trim();
  return applyCompaction(
    {
      action: "compact",
      trigger: "manual",
      cut: plan.cut,
      model: summaryModel,
      summaryWindow: windowOf(summaryModel.id),
      size,
      contextWindow,
      ...(focus ? { focus } : {}),
    },
    env,
  );
}
