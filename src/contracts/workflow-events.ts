import type { Usage } from "../model/messages.ts";

/**
 * What a workflow run (`src/workflows/`) reports as it goes, beside its agents' own events. They are
 * `AgentEvent`s too, sent with the workflow's own `agentPath`, so they reach the root's stream (and
 * `--output-format stream-json`) from the CLI, the library and the model's `workflow` tool alike.
 */
/**
 * The `agentType` of the nodes a workflow adds to the tree (the workflow and its phases): groups of
 * agents, not agents. Here, not in `workflows/`, because every UI that draws the tree counts them apart.
 */
export const WORKFLOW_NODE_TYPES: readonly string[] = ["workflow", "phase"];

export type WorkflowEvent =
  | { type: "workflow_start"; runId: string; name: string; phases: string[]; resumed: boolean }
  | { type: "workflow_phase"; runId: string; title: string }
  | {
      type: "workflow_agent";
      runId: string;
      /**
       * The call's place in the script's structure, the replay cache's key: "2" is the body's third
       * call, "3.1.2/0" the first call of stage 2 of item 1 of the pipeline at ordinal 3.
       */
      position: string;
      label: string;
      phase?: string;
      /** `replayed`: its result came from the run's journal, without a model call. */
      status: "started" | "completed" | "failed" | "replayed" | "corrected";
      taskId?: string;
      error?: string;
    }
  | { type: "workflow_log"; runId: string; message: string }
  | { type: "workflow_failure"; runId: string; where: string; error: string }
  | { type: "workflow_end"; runId: string; outcome: WorkflowOutcome };

export type WorkflowStatus = "completed" | "failed" | "cancelled" | "budget_exceeded";

/** How a workflow run ended. */
export interface WorkflowOutcome {
  runId: string;
  name: string;
  status: WorkflowStatus;
  /** What the script returned (JSON data), when it completed. */
  result?: unknown;
  /** Why it did not complete. */
  error?: string;
  /** `run`: agent calls that ran a child; `replayed`: answered from the journal; `failed`: of those run. */
  agents: { run: number; replayed: number; failed: number };
  /** Items of `parallel` and `pipeline` that failed (each resolved to null; the others went on). */
  failures: { where: string; error: string }[];
  /** What its children used (every model call, corrective turns included). */
  usage: Usage;
  durationMs: number;
}
