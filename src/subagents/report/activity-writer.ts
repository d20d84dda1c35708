import type { AgentEvent } from "../../contracts/events.ts";
import type { TaskActivity } from "../../tasks/task-record.ts";
import {
  type AgentTreeState,
  emptyAgentTree,
  findNode,
  reduceAgentTree,
} from "../../tree/agent-tree-state.ts";
import { nodeActivity } from "../../tree/node-activity.ts";

/**
 * How long after a change its activity is written: a child's tools and turns come in bursts, and each
 * write rewrites its session's task file. A child that finishes sooner writes none (its outcome says it).
 */
export const ACTIVITY_WRITE_MS = 250;

/**
 * What a child does now, written into its record so that other processes (the web view) see what
 * this process's live tree shows: the child's own events folded into its tree node, the node's live
 * part (`nodeActivity`) written at most every `ACTIVITY_WRITE_MS`, and only when it changed.
 */
export class ActivityWriter {
  private readonly path: readonly string[];
  private readonly write: (activity: TaskActivity) => Promise<void>;
  private tree: AgentTreeState = emptyAgentTree;
  private timer: NodeJS.Timeout | undefined;
  private written = "";

  constructor(path: readonly string[], write: (activity: TaskActivity) => Promise<void>) {
    this.path = path;
    this.write = write;
  }

  /** One of the child's own events. */
  observe(event: AgentEvent): void {
    this.tree = reduceAgentTree(this.tree, event, Date.now());
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, ACTIVITY_WRITE_MS);
    this.timer.unref();
  }

  /** The activation ended: nothing more is written (its outcome is). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flush(): void {
    const node = findNode(this.tree, this.path);
    if (node === undefined) return;
    const activity = nodeActivity(node);
    const text = JSON.stringify(activity);
    if (text === this.written) return;
    this.written = text;
    void this.write(activity);
  }
}
