import type { AgentEvent } from "../../contracts/events.ts";
import { addUsage, emptyUsage, type Usage } from "../../model/messages.ts";

/**
 * Sums the usage of every agent run in the tree (the root and each child run, continuations
 * included) from the `agent_end` events, so totals cover the whole tree (DESIGN §3), and notes the
 * root's path for the result object.
 */
export class TreeUsage {
  private total: Usage = emptyUsage();
  private runs = 0;
  private root: string[] | undefined;

  add(event: AgentEvent): void {
    // A run's first event is its root's `agent_start`; children's events only follow it.
    this.root ??= event.agentPath;
    if (event.type !== "agent_end") return;
    this.total = addUsage(this.total, event.outcome.usage);
    this.runs++;
  }

  get usage(): Usage {
    return this.total;
  }

  /** The root agent's path, once an event was seen. */
  get rootPath(): string[] | undefined {
    return this.root;
  }

  /** Agent runs counted (root included). */
  get agentRuns(): number {
    return this.runs;
  }
}
