import { addUsage, emptyUsage, type Usage } from "../model/messages.ts";
import type { AgentEvent } from "./events.ts";
import { RunLimitExceeded } from "./run-limits.ts";

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
 * Sums the usage of each model turn anywhere in the tree (`turn_end` events) and aborts `controller`
 * with a `RunLimitExceeded("budget")` at the first turn that takes the total over a budget, or when
 * the time is up, so the root and its running children stop and the run ends `budget_exceeded`.
 */
export function watchTreeBudget(budget: TreeBudget, controller: AbortController): TreeBudgetWatch {
  let usage = emptyUsage();
  const { maxDurationMs } = budget;
  const timer =
    maxDurationMs === undefined
      ? undefined
      : setTimeout(() => {
          if (controller.signal.aborted) return;
          const seconds = Math.round(maxDurationMs / 100) / 10;
          controller.abort(new RunLimitExceeded("budget", `time budget of the run exceeded: ${seconds}s`));
        }, maxDurationMs);
  timer?.unref();
  return {
    observe(event) {
      if (event.type !== "turn_end") return;
      usage = addUsage(usage, event.usage);
      if (controller.signal.aborted) return;
      const tokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
      const cost = usage.cost ?? 0;
      if (budget.maxTokens !== undefined && tokens > budget.maxTokens) {
        controller.abort(
          new RunLimitExceeded(
            "budget",
            `token budget of the run exceeded: ${tokens} tokens used by the agent and its subagents, the limit is ${budget.maxTokens}`,
          ),
        );
      } else if (budget.maxCostUsd !== undefined && cost > budget.maxCostUsd) {
        controller.abort(
          new RunLimitExceeded(
            "budget",
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
