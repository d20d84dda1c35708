import { contextWindowOf } from "../../model/context-windows.ts";
import type { Message } from "../../model/messages.ts";
import type { Hooks } from "../hooks.ts";
import {
  type CompactionDecision,
  type CompactionOptions,
  DEFAULT_COMPACTION_THRESHOLD,
  DEFAULT_KEEP_TURNS,
} from "./compaction.ts";
import { planCompaction } from "./compaction-plan.ts";

/** After an attempt that did not bring the prompt under the threshold, the next waits this many messages. */
const RETRY_AFTER_MESSAGES = 4;

/** Where one session stands since its history last changed shape (a compaction replaces its first message). */
interface Attempt {
  first: Message | undefined;
  length: number;
  reported: boolean;
}

/**
 * Automatic compaction as a policy: before each model call, when the prompt has reached `threshold` of
 * the model's context window, the older turns are replaced by a summary (the last `keepTurns` stay as
 * they are; fewer when that is what brings the prompt to half the threshold). Put it after the hooks
 * that inject messages, so what they add is measured. A conversation that cannot shrink enough is
 * reported once, not compacted at every call; a failed summary is tried again a few messages later.
 */
export function compactionHooks(options: CompactionOptions = {}): Hooks {
  const threshold = options.threshold ?? DEFAULT_COMPACTION_THRESHOLD;
  const keepTurns = options.keepTurns ?? DEFAULT_KEEP_TURNS;
  const windowOf = options.contextWindow ?? ((id: string) => contextWindowOf(id));
  if (!(threshold > 0 && threshold <= 1))
    throw new RangeError(
      `compaction threshold must be a share of the context window in (0, 1], got ${threshold}`,
    );
  if (!Number.isInteger(keepTurns) || keepTurns < 1)
    throw new RangeError(`compaction keepTurns must be a whole number ≥ 1, got ${keepTurns}`);
  const attempts = new Map<string, Attempt>();
  return {
    beforeModelCall(ctx): { compaction: CompactionDecision } | undefined {
      const contextWindow = windowOf(ctx.model.id);
      const limit = Math.floor(contextWindow * threshold);
      const size = ctx.context();
      if (size.tokens < limit) return undefined;
      const { messages } = ctx;
      const key = ctx.agent.sessionId;
      const last = attempts.get(key);
      const sameShape = last !== undefined && last.first === messages[0];
      const plan = planCompaction(messages, { keepTurns, size, target: Math.floor(limit / 2), limit });
      if (plan.kind === "cannot_shrink") {
        if (sameShape && last.reported) return undefined;
        attempts.set(key, { first: messages[0], length: messages.length, reported: true });
        return {
          compaction: {
            action: "report",
            trigger: "auto",
            reason: "cannot_shrink",
            error: `the conversation (about ${size.tokens} tokens, ${Math.round((size.tokens / contextWindow) * 100)}% of ${ctx.model.id}'s ${contextWindow}) cannot be compacted enough: ${plan.reason}`,
            tokens: size.tokens,
            contextWindow,
          },
        };
      }
      if (sameShape && messages.length < last.length + RETRY_AFTER_MESSAGES) return undefined;
      attempts.set(key, { first: messages[0], length: messages.length, reported: false });
      const model = options.model ?? ctx.model;
      return {
        compaction: {
          action: "compact",
          trigger: "auto",
          cut: plan.cut,
          model,
          summaryWindow: windowOf(model.id),
          size,
          contextWindow,
        },
      };
    },
  };
}
