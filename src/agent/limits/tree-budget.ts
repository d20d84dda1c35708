import type { AgentEvent } from "../../contracts/events.ts";
import { addUsage, emptyUsage, type Usage } from "../../model/messages.ts";
import { RunLimitExceeded } from "./run-limits.ts";
import { totalTokens } from "./token-estimate.ts";

/** Budgets of a whole run: the root and every subagent it starts, continuations included. */
export interface TreeBudget {
  /** Input + output + cache tokens over every model call of the tree. */
  maxTokens?: number;
  /** US dollars over every model call of the tree whose price is known. */
  maxCostUsd?: number;
  /** Wall-clock time from `watchTreeBudget` on. */
  maxDurationMs?: number;
}

export interface TreeBudgetWatch {
  /** Feeds one event of the tree (children's events included); aborts once a budget is exceeded. */
  observe(event: AgentEvent): void;
  /** What the tree used so far. */
  readonly usage: Usage;
  /** Stops the clock (call it when the run ended). */
  dispose(): void;
}

/**
 * Sums the usage of each model call anywhere in the tree (its reply, or the `turn_end` of a call that
 * failed) plus the estimates of
 * the calls still streaming (`usage_estimate` events: a call's prompt and its output so far), and
 * aborts `controller` with a `RunLimitExceeded("tree")` as soon as that total passes the token
 * budget — before a call whose prompt alone would pass it, or in the middle of a reply — or the real
 * cost passes the cost budget, or the time is up. The root and its running children stop, and the run
 * ends `budget_exceeded`. The overshoot is bounded by the estimates' error (docs/subagents.md).
 */
export function watchTreeBudget(budget: TreeBudget, controller: AbortController): TreeBudgetWatch {
  let usage = emptyUsage();
  /** Estimated tokens of each agent's call in flight, by agent path. */
  const inFlight = new Map<string, number>();
  /** Agents whose current turn's usage was counted at its reply, before its tools (children) ran. */
  const counted = new Set<string>();
  const { maxDurationMs } = budget;
  const timer =
    maxDurationMs === undefined
      ? undefined
      : setTimeout(() => {
          if (controller.signal.aborted) return;
          const seconds = Math.round(maxDurationMs / 100) / 10;
          controller.abort(new RunLimitExceeded("tree", `time budget of the run exceeded: ${seconds}s`));
        }, maxDurationMs);
  timer?.unref();
  return {
    observe(event) {
      const key = event.agentPath.join("/");
      if (event.type === "usage_estimate") inFlight.set(key, event.tokens);
      else if (event.type === "assistant_message") {
        // Counted as the reply arrives: a parent's call costs while the children its tools start run.
        inFlight.delete(key);
        counted.add(key);
        usage = addUsage(usage, event.message.usage);
      } else if (event.type === "turn_end") {
        inFlight.delete(key);
        // A failed or stopped call has no reply: its turn_end carries what it used.
        if (!counted.delete(key)) usage = addUsage(usage, event.usage);
      } else if (event.type === "compacted" || event.type === "compaction_failed") {
        // A compaction's summary call.
        usage = addUsage(usage, event.usage);
      } else return;
      if (controller.signal.aborted) return;
      const used = totalTokens(usage);
      const estimated = [...inFlight.values()].reduce((sum, tokens) => sum + tokens, 0);
      const cost = usage.cost ?? 0;
      if (budget.maxTokens !== undefined && used + estimated > budget.maxTokens) {
        const streaming =
          estimated > 0 ? `, and about ${estimated} for the model calls in flight, which were stopped` : "";
        controller.abort(
          new RunLimitExceeded(
            "tree",
            `token budget of the run exceeded: ${used} tokens used by the agent and its subagents${streaming}; the limit is ${budget.maxTokens}`,
          ),
        );
      } else if (budget.maxCostUsd !== undefined && cost > budget.maxCostUsd) {
        controller.abort(
          new RunLimitExceeded(
            "tree",
            `cost budget of the run exceeded: $${cost.toFixed(4)} spent by the agent and its subagents, the limit is $${budget.maxCostUsd}`,
          ),
        );
      }
    },
    get usage() {
      return usage;
    },
    dispose() {
      clearTimeout(timer);
    },
  };
}
