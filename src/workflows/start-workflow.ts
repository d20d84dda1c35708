import { watchTreeBudget } from "../agent/limits/tree-budget.ts";
import { newSessionId } from "../agent/session/session-id.ts";
import type { AgentEvent } from "../contracts/events.ts";
import type { WorkflowEvent, WorkflowOutcome, WorkflowStatus } from "../contracts/workflow-events.ts";
import { emptyUsage, type Usage } from "../model/messages.ts";
import { currentOwner } from "../tasks/owner.ts";
import type { TaskStore } from "../tasks/task-store.ts";
import { errorMessage } from "../text/error-message.ts";
import type { ToolContext } from "../tools/tool.ts";
import { PhaseNodes, workflowPath } from "./phase-nodes.ts";
import { ReplayJournal, type RunHeader } from "./replay-journal.ts";
import { finishRunRecord, resumeRunRecord, startRunRecord, watchRunRecord } from "./run-record.ts";
import { runScript, type SandboxHost } from "./script-sandbox.ts";
import { WorkflowAgents, type WorkflowChildren } from "./workflow-agents.ts";
import { AgentCapReached, type WorkflowBudget } from "./workflow-budget.ts";
import { WorkflowInputError } from "./workflow-errors.ts";
import type { WorkflowSource } from "./workflow-source.ts";

/** Where a workflow runs: its caller's tree. */
export interface WorkflowHost {
  children: WorkflowChildren;
  store: TaskStore;
  /**
   * The caller's context: its workspace, I/O, permission prompts, event sink and identity. The
   * workflow's agents are the caller's children (their records name its session).
   */
  context: Omit<ToolContext, "toolCallId" | "signal">;
  /** The caller's run: when it stops, the workflow stops. */
  signal?: AbortSignal;
}

export interface StartWorkflowOptions {
  source: WorkflowSource;
  /** The script's `args` (JSON data). */
  args?: unknown;
  /** Whether the source is TypeScript (kept in the journal, for a resume without the file). */
  typescript?: boolean;
  /** Continue this run: finished agent calls are replayed from its journal, the rest run. */
  resume?: string;
  budget?: WorkflowBudget;
  /**
   * The workflow's events also as they are: they reach the host's `emit` anyway (with the workflow's
   * `agentPath`), so this is for a host that wants only them.
   */
  onEvent?: (event: WorkflowEvent) => void;
  /** Finds a saved workflow by name, for the script's `workflow(name, args)`. Absent: it fails. */
  loadWorkflow?: (name: string) => Promise<WorkflowSource>;
}

export interface StartedWorkflow {
  runId: string;
  /** Its end; never rejects. */
  done: Promise<WorkflowOutcome>;
  /** Stops it: its running agents are cancelled, its record says CANCELLED. */
  cancel(reason?: string): void;
}

/**
 * Starts a workflow in the background of its caller: a task record (its run id, which `agentry tasks
 * list|show|cancel` see), a journal of its agent calls, and the script in its sandbox. Returns once
 * the record exists.
 */
export async function startWorkflow(
  host: WorkflowHost,
  options: StartWorkflowOptions,
): Promise<StartedWorkflow> {
  const { source } = options;
  const runId = options.resume ?? newSessionId({ prefix: "wf" });
  const header: RunHeader = {
    name: source.meta.name,
    origin: source.origin,
    typescript: options.typescript ?? false,
    source: source.text,
    args: options.args ?? null,
  };
  const owner = currentOwner();
  let journal: ReplayJournal;
  if (options.resume === undefined) {
    await startRunRecord(host, { runId, owner, meta: source.meta });
    journal = ReplayJournal.create(host.context.workspace, runId, header, host.store.journals);
  } else {
    // The journal first: a run that cannot be resumed leaves its record as it was.
    journal = (await ReplayJournal.open(host.context.workspace, runId, host.store.journals)).journal;
    await resumeRunRecord(host.store, runId, owner);
    journal.restart(header);
  }
  const controller = new AbortController();
  const path = workflowPath(host.context.agent.path, source.meta.name);
  const report = (event: WorkflowEvent) => {
    options.onEvent?.(event);
    host.context.emit({ ...event, agentPath: path });
  };
  const done = execute(host, options, { runId, journal, controller, path, report })
    .catch(
      (error: unknown): WorkflowOutcome => ({
        runId,
        name: source.meta.name,
        status: "failed",
        error: `internal error: ${errorMessage(error)}`,
        agents: { run: 0, replayed: 0, failed: 0 },
        failures: [],
        usage: emptyUsage(),
        durationMs: 0,
      }),
    )
    .then(async (outcome) => {
      await journal.close().catch(() => {});
      await finishRunRecord(host.store, runId, owner, outcome);
      report({ type: "workflow_end", runId, outcome });
      return outcome;
    });
  return {
    runId,
    done,
    cancel: (reason = "the workflow was cancelled") => controller.abort(new WorkflowCancelled(reason)),
  };
}

/** A cancel of the whole run, as opposed to a budget or the caller's end. */
export class WorkflowCancelled extends Error {
  override readonly name = "WorkflowCancelled";
}

async function execute(
  host: WorkflowHost,
  options: StartWorkflowOptions,
  run: {
    runId: string;
    journal: ReplayJournal;
    controller: AbortController;
    /** The workflow's node in the tree. */
    path: string[];
    report: (event: WorkflowEvent) => void;
  },
): Promise<WorkflowOutcome> {
  const { source } = options;
  const { runId, controller } = run;
  const startedAt = Date.now();
  const emitWorkflow = run.report;
  const signal = host.signal ? AbortSignal.any([controller.signal, host.signal]) : controller.signal;
  const budget = options.budget ?? {};
  const watch = watchTreeBudget(budget, controller);
  const stopWatching = watchRunRecord(host.store, runId, () =>
    controller.abort(new WorkflowCancelled("cancelled from another process (agentry tasks cancel)")),
  );
  const emit = (event: AgentEvent) => {
    watch.observe(event);
    host.context.emit(event);
  };
  // Before its tree's first node, so a consumer knows the run before its agents.
  emitWorkflow({
    type: "workflow_start",
    runId,
    name: source.meta.name,
    phases: source.meta.phases.map((phase) => phase.title),
    resumed: options.resume !== undefined,
  });
  const phases = new PhaseNodes(runId, source.meta.name, run.path, emit);
  const failures: WorkflowOutcome["failures"] = [];
  let current: string | undefined;
  const agents = new WorkflowAgents({
    runId,
    children: host.children,
    journal: run.journal,
    signal,
    maxAgents: budget.maxAgents,
    currentPhase: () => current,
    stop: (reason) => controller.abort(reason),
    onEvent: emitWorkflow,
    contextFor: (phase) => ({
      ...host.context,
      signal,
      emit,
      toolCallId: runId,
      agent: { ...host.context.agent, path: phases.pathOf(phase) },
    }),
  });
  let status: WorkflowStatus = "completed";
  let result: unknown;
  let error: string | undefined;
  try {
    const sandbox: SandboxHost = {
      args: options.args ?? null,
      agent: (payload) => agents.call(payload),
      phase: (title) => {
        current = title;
        phases.enter(title);
        emitWorkflow({ type: "workflow_phase", runId, title });
      },
      log: (message) => emitWorkflow({ type: "workflow_log", runId, message }),
      failure: (where, message) => {
        failures.push({ where, error: message });
        emitWorkflow({ type: "workflow_failure", runId, where, error: message });
      },
      budget: () => ({ total: budget.maxTokens ?? null, spent: tokensOf(watch.usage) }),
    };
    const loadNested = options.loadWorkflow ?? (() => Promise.reject(new Error("no saved workflows here")));
    sandbox.workflow = (payload) => nestedWorkflow(payload, { sandbox, loadNested, signal });
    result = await runScript(source.body, sandbox, { signal, filename: source.origin });
  } catch (thrown) {
    ({ status, error } = failure(thrown, signal));
  } finally {
    watch.dispose();
    stopWatching();
    phases.end(status);
  }
  return {
    runId,
    name: source.meta.name,
    status,
    ...(status === "completed" ? { result } : {}),
    ...(error === undefined ? {} : { error }),
    agents: { ...agents.counts },
    failures,
    usage: watch.usage ?? emptyUsage(),
    durationMs: Date.now() - startedAt,
  };
}

/**
 * `workflow(name, args)`: a saved workflow run inline, in a sandbox of its own, its agents this run's
 * (their journal positions under the `workflow()` call's, the same budget and cap). It gets no
 * `workflow()` itself: one level only.
 */
async function nestedWorkflow(
  payload: string,
  run: { sandbox: SandboxHost; loadNested: (name: string) => Promise<WorkflowSource>; signal: AbortSignal },
): Promise<string> {
  const { name, args, position } = JSON.parse(payload) as { name: string; args: unknown; position: string };
  try {
    const nested = await run.loadNested(name);
    const { workflow: _none, ...host } = run.sandbox;
    const value = await runScript(
      nested.body,
      { ...host, args, scope: position },
      { signal: run.signal, filename: nested.origin },
    );
    return JSON.stringify({ ok: true, value });
  } catch (error) {
    const message = errorMessage(error);
    return JSON.stringify({
      ok: false,
      error: `workflow("${name}"): ${message}`,
      stopped: run.signal.aborted,
    });
  }
}

function tokensOf(usage: Usage): number {
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** How a run that threw ended: cancelled, over its budget, or failed with the script's error. */
function failure(thrown: unknown, signal: AbortSignal): { status: WorkflowStatus; error: string } {
  const message = (value: unknown) => errorMessage(value);
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof WorkflowCancelled) return { status: "cancelled", error: reason.message };
    if (reason instanceof Error && reason.name === "RunLimitExceeded") {
      return { status: "budget_exceeded", error: reason.message };
    }
    if (reason instanceof AgentCapReached) return { status: "budget_exceeded", error: reason.message };
    return { status: "cancelled", error: message(reason) };
  }
  if (thrown instanceof WorkflowInputError) return { status: "failed", error: thrown.message };
  return { status: "failed", error: message(thrown) };
}
