import type { AgentEvent } from "../../agent/events.ts";
import { addUsage, emptyUsage, type Usage } from "../../model/messages.ts";

/**
 * Sums the usage of every agent run in the tree (the root and each child run, continuations
 * included) from the `agent_end` events, so totals cover the whole tree (DESIGN §3).
 */
export class TreeUsage {
  private total: Usage = emptyUsage();
  private runs = 0;

  add(event: AgentEvent): void {
    if (event.type !== "agent_end") return;
    this.total = addUsage(this.total, event.outcome.usage);
    this.runs++;
  }

  get usage(): Usage {
    return this.total;
  }

  /** Agent runs counted (root included). */
  get agentRuns(): number {
    return this.runs;
  }
}
