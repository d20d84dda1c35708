import type { WorkflowOutcome } from "../contracts/workflow-events.ts";
import { ownerLiveness } from "../tasks/owner.ts";
import { isFinished } from "../tasks/task-record.ts";
import type { TaskStore } from "../tasks/task-store.ts";
import type { AgentIdentity } from "../tools/tool.ts";
import { WorkflowInputError } from "./workflow-errors.ts";
import type { WorkflowMeta } from "./workflow-source.ts";

/** The agentType of a workflow run's task record. */
export const WORKFLOW_AGENT_TYPE = "workflow";

/** How often a running workflow looks for a cancel from another process (a read of its record). */
const CANCEL_POLL_MS = 1_000;
/**
 * How often it writes its heartbeat: a locked, fsync'd rewrite of the task file its agents' records
 * are in, so it is kept as rare as the children's own (the subagent limits' default `heartbeatMs`),
 * well inside the 30 s after which a silent record counts as orphaned.
 */
const HEARTBEAT_MS = 2_000;

/** A new run's record: RUNNING, in the background of its caller, owned by this process. */
export async function startRunRecord(
  host: { store: TaskStore; context: { agent: AgentIdentity } },
  run: { runId: string; owner: string; meta: WorkflowMeta },
): Promise<void> {
  const { agent } = host.context;
  await host.store.create({
    taskId: run.runId,
    agentType: WORKFLOW_AGENT_TYPE,
    parentAgentId: agent.path.at(-1) ?? "main",
    parentSessionId: agent.sessionId,
    childSessionId: run.runId,
    description: run.meta.description === "" ? run.meta.name : `${run.meta.name}: ${run.meta.description}`,
    status: "RUNNING",
    owner: run.owner,
    agentPath: [...agent.path, run.meta.name],
    background: true,
  });
}

/**
 * Takes an earlier run back to RUNNING under this process. Refused while its owner still runs it, and
 * for a task that is not a workflow run.
 */
export async function resumeRunRecord(store: TaskStore, runId: string, owner: string): Promise<void> {
  const record = await store.get(runId);
  if (record === undefined || record.agentType !== WORKFLOW_AGENT_TYPE) {
    throw new WorkflowInputError(
      `No workflow run ${runId} in this workspace's task records: agentry tasks list shows the runs.`,
    );
  }
  if (!isFinished(record.status) && record.owner !== owner && ownerLiveness(record.owner) !== "dead") {
    throw new WorkflowInputError(
      `Workflow run ${runId} is still ${record.status} under ${record.owner}: cancel it first (agentry tasks cancel ${runId}), or wait for it.`,
    );
  }
  await store.update(
    runId,
    { status: "RUNNING", owner, cancelRequested: false },
    { resume: true, reclaim: true },
  );
}

/** Writes how the run ended (its result as JSON text). */
export async function finishRunRecord(
  store: TaskStore,
  runId: string,
  owner: string,
  outcome: WorkflowOutcome,
): Promise<void> {
  const status =
    outcome.status === "completed" ? "COMPLETED" : outcome.status === "cancelled" ? "CANCELLED" : "FAILED";
  const reason =
    outcome.status === "cancelled"
      ? "cancelled"
      : outcome.status === "budget_exceeded"
        ? "budget"
        : undefined;
  await store
    .update(
      runId,
      (current) =>
        current.owner !== owner
          ? {}
          : {
              status,
              usage: outcome.usage,
              ...(outcome.status === "completed"
                ? { result: JSON.stringify(outcome.result ?? null, null, 2) }
                : {}),
              ...(outcome.error === undefined ? {} : { error: outcome.error }),
              ...(reason === undefined ? {} : { reason }),
            },
      { reclaim: true },
    )
    .catch(() => {});
}

/** Beats for the run while it works and calls `onCancel` once another process asked for a cancel. */
export function watchRunRecord(store: TaskStore, runId: string, onCancel: () => void): () => void {
  let busy = false;
  let lastBeat = Date.now();
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    const beat = Date.now() - lastBeat >= HEARTBEAT_MS - CANCEL_POLL_MS / 2;
    if (beat) lastBeat = Date.now();
    const look = beat ? store.heartbeat([runId]).then(([record]) => record) : store.get(runId);
    look
      .then((record) => {
        if (record?.cancelRequested) onCancel();
      })
      .catch(() => {})
      .finally(() => {
        busy = false;
      });
  }, CANCEL_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
