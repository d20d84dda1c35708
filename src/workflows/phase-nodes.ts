import type { AgentEvent } from "../contracts/events.ts";
import type { WorkflowStatus } from "../contracts/workflow-events.ts";
import { emptyUsage } from "../model/messages.ts";

const WORKFLOW_NODE = "workflow";
const PHASE_NODE = "phase";

export { WORKFLOW_NODE_TYPES } from "../contracts/workflow-events.ts";

/**
 * The workflow and its phases as nodes of the live tree: the workflow under its caller, each phase
 * under it, each agent under its phase (`main/review-code/verify/general-purpose-3`). A UI that draws
 * the tree from `agentPath` groups the agents by phase with nothing to learn.
 */
export class PhaseNodes {
  private readonly root: string[];
  private readonly started = new Map<string, string[]>();
  private readonly runId: string;
  private readonly emit: (event: AgentEvent) => void;
  private readonly startedAt = Date.now();

  constructor(runId: string, name: string, root: string[], emit: (event: AgentEvent) => void) {
    this.runId = runId;
    this.emit = emit;
    this.root = root;
    this.start(this.root, WORKFLOW_NODE, name);
  }

  /** A phase begins (or is named again): its node exists from now on. */
  enter(title: string): void {
    this.pathOf(title);
  }

  /** Where the agents of a phase go (the workflow's own node without one). */
  pathOf(phase: string | undefined): string[] {
    if (phase === undefined) return this.root;
    const known = this.started.get(phase);
    if (known) return known;
    const taken = new Set([...this.started.values()].map((path) => path.at(-1)));
    let name = slug(phase, "phase");
    for (let n = 2; taken.has(name); n++) name = `${slug(phase, "phase")}-${n}`;
    const path = [...this.root, name];
    this.started.set(phase, path);
    this.start(path, PHASE_NODE, phase);
    return path;
  }

  /** The run ended: its phases and itself end with it. */
  end(status: WorkflowStatus): void {
    for (const path of [...this.started.values(), this.root]) {
      const base = {
        text: "",
        turns: 0,
        usage: emptyUsage(),
        durationMs: Date.now() - this.startedAt,
        sessionId: this.runId,
      };
      this.emit({
        type: "agent_end",
        agentPath: path,
        outcome:
          status === "completed"
            ? { ...base, status: "completed" }
            : status === "failed"
              ? { ...base, status: "error", error: "the workflow failed" }
              : { ...base, status: "aborted", reason: status.replace("_", " ") },
      });
    }
  }

  private start(path: string[], agentType: string, description: string): void {
    this.emit({
      type: "agent_start",
      agentPath: path,
      sessionId: `${this.runId}:${path.at(-1) ?? ""}`,
      agentType,
      model: "",
      description,
    });
  }
}

/** The workflow's own node, under its caller's: `[...callerPath, <its name as a path segment>]`. */
export function workflowPath(callerPath: readonly string[], name: string): string[] {
  return [...callerPath, slug(name, "workflow")];
}

/** A path segment (and a task record's parent id): letters, digits and `-`, not starting with one. */
function slug(text: string, fallback: string): string {
  const slugged = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
  return slugged === "" ? fallback : slugged;
}
