import { homedir } from "node:os";
import { EVENT_SCHEMA_VERSION } from "../../../contracts/events.ts";
import type { Outcome } from "../../../contracts/outcome.ts";
import type { WorkflowEvent, WorkflowOutcome } from "../../../contracts/workflow-events.ts";
import { emptyUsage } from "../../../model/messages.ts";
import type { PermissionMode } from "../../../permissions/gate.ts";
import { errorMessage } from "../../../text/error-message.ts";
import {
  type LoadedWorkflow,
  listSavedWorkflows,
  loadWorkflow,
  parseWorkflowSource,
  planWorkflow,
  ReplayJournal,
  type RunHeader,
  savedWorkflowLoader,
  startWorkflow,
  type WorkflowBudget,
  type WorkflowPlan,
  workflowHost,
} from "../../../workflows/index.ts";
import { checkedWorkspace } from "../../config/check-config.ts";
import { UsageError } from "../../errors.ts";
import { EXIT_CODES, exitCodeForOutcome } from "../../exit-codes.ts";
import { storeUrl } from "../../fleet-flags.ts";
import { exitAborted, handleInterrupts } from "../../interrupts.ts";
import type { CliIo } from "../../io.ts";
import type { OutputFormat, Renderer } from "../../render/renderer.ts";
import { colorEnabled } from "../../render/style.ts";
import { formatTable } from "../../render/table.ts";
import { withAgentTree } from "../../render/with-agent-tree.ts";
import { loadRunSettings, selectSessionAndModel, sharedWiring } from "../../wire/prepare-run.ts";
import { rootWiring, wireTracedRoot } from "../../wire/start-root.ts";

export interface WorkflowRunOptions {
  /** `--trust-project`: the project's widening settings apply for this run. */
  trustProject?: boolean;
  args?: string;
  resume?: string;
  dryRun?: boolean;
  model?: string;
  maxAgents?: number;
  maxTokens?: number;
  maxCost?: number;
  timeout?: number;
  outputFormat: OutputFormat;
  cwd?: string;
  permissionMode?: PermissionMode;
  maxConcurrency?: number;
  mcpConfig?: string[];
  agents?: string;
  /** `--store` and `--queue`: task records and agents on a fleet's Redis. */
  store?: string;
  queue?: string;
}

export interface WorkflowListOptions {
  cwd?: string;
  json?: boolean;
}

/** `agentry workflow run [workflow]`: a workflow to its end, no model in the loop. Returns the exit code. */
export async function workflowRunCommand(
  reference: string | undefined,
  options: WorkflowRunOptions,
  io: CliIo,
): Promise<number> {
  const loaded = await loadRunSettings(options, io);
  const { workspace, settings, limiters } = loaded;
  const script = await scriptToRun(
    reference,
    options,
    workspace,
    io,
    storeUrl(options.store, io.env, settings.fleet.redis),
  );
  if (options.dryRun) {
    printPlan(await planWorkflow(script.loaded.source, script.args), options.outputFormat, io);
    return EXIT_CODES.completed;
  }
  const { model } = await selectSessionAndModel(workspace, settings, io, undefined, limiters);
  const controller = new AbortController();
  let aborted = false;
  const disposeInterrupts = handleInterrupts({
    controller,
    forceExit: () => exitAborted(io.stderr, aborted),
  });
  const { wired, tracing } = await wireTracedRoot({
    ...rootWiring(loaded, model, io),
    signal: controller.signal,
    ...sharedWiring(options),
  }).catch((error: unknown) => {
    disposeInterrupts();
    throw error;
  });
  const output = workflowOutput(options.outputFormat, io);
  try {
    // The workflow is the root of its tree: its node, its phases under it, their agents under them.
    const host = workflowHost(
      wired.runtime,
      { ...wired.config, agentPath: [] },
      {
        emit: (event) => {
          output.agent.event(event);
          tracing?.event(event);
        },
        signal: controller.signal,
      },
    );
    const run = await startWorkflow(host, {
      source: script.loaded.source,
      typescript: script.loaded.typescript,
      args: script.args,
      ...(options.resume === undefined ? {} : { resume: options.resume }),
      budget: budgetOf(options),
      onEvent: output.workflow,
      loadWorkflow: savedWorkflowLoader({
        cwd: io.cwd,
        projectDir: workspace,
        homeDir: io.env.HOME || homedir(),
      }),
    });
    const outcome = await run.done;
    output.finish(outcome);
    aborted = outcome.status === "cancelled";
    return exitCodeForOutcome(asOutcome(outcome).status);
  } finally {
    await wired.close("its workflow ended");
    await tracing?.close();
    disposeInterrupts();
  }
}

/** `agentry workflow list`. */
export async function workflowListCommand(options: WorkflowListOptions, io: CliIo): Promise<number> {
  const workspace = await checkedWorkspace(options.cwd, io);
  const saved = await listSavedWorkflows(workspace, io.env.HOME || homedir());
  const rows = await Promise.all(
    saved.map(async (workflow) => {
      const loaded = await loadWorkflow(workflow.path, {
        cwd: workspace,
        projectDir: workspace,
        homeDir: "",
      }).catch((error: unknown) => error);
      const description =
        loaded instanceof Error
          ? `(cannot be read: ${loaded.message})`
          : (loaded as LoadedWorkflow).source.meta.description;
      return { name: workflow.name, description, path: workflow.path };
    }),
  );
  if (options.json) io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else if (rows.length === 0)
    io.stdout.write("No saved workflows (.agentry/workflows/, .claude/workflows/).\n");
  else
    io.stdout.write(
      `${formatTable(
        ["NAME", "DESCRIPTION", "FILE"],
        rows.map((r) => [r.name, r.description, r.path]),
      )}\n`,
    );
  return EXIT_CODES.completed;
}

/** The script and its args: the file or saved workflow named, else (with `--resume`) the run's own. */
async function scriptToRun(
  reference: string | undefined,
  options: WorkflowRunOptions,
  workspace: string,
  io: CliIo,
  store: string | undefined,
): Promise<{ loaded: LoadedWorkflow; args: unknown }> {
  const given = options.args === undefined ? undefined : parseArgs(options.args);
  if (reference !== undefined) {
    const loaded = await loadWorkflow(reference, {
      cwd: io.cwd,
      projectDir: workspace,
      homeDir: io.env.HOME || homedir(),
    });
    if (options.resume === undefined || given !== undefined) return { loaded, args: given ?? null };
    const header = await runHeader(workspace, options.resume, store);
    return { loaded, args: header.args };
  }
  if (options.resume === undefined) {
    throw new UsageError("Name a workflow to run (a script file or a saved workflow), or --resume <run-id>.");
  }
  const header = await runHeader(workspace, options.resume, store);
  const source = await parseWorkflowSource(header.source, header.origin, { typescript: header.typescript });
  return { loaded: { source, typescript: header.typescript }, args: given ?? header.args };
}

/**
 * What a run was started with, from its journal: in the fleet's store when the run has one (`--store`,
 * `AGENTRY_REDIS_URL`, `fleet.redis`: a run started on any machine), else in this workspace.
 */
async function runHeader(workspace: string, runId: string, store: string | undefined): Promise<RunHeader> {
  if (store === undefined) return (await ReplayJournal.open(workspace, runId)).header;
  const { RedisTaskStore } = await import("../../../tasks/redis/redis-task-store.ts");
  const tasks = await RedisTaskStore.connect(store);
  try {
    return (await ReplayJournal.open(workspace, runId, tasks.journals)).header;
  } finally {
    await tasks.close();
  }
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args must be JSON: ${errorMessage(error)}`);
  }
}

function budgetOf(options: WorkflowRunOptions): WorkflowBudget {
  const budget: WorkflowBudget = {};
  if (options.maxAgents !== undefined) budget.maxAgents = options.maxAgents;
  if (options.maxTokens !== undefined) budget.maxTokens = options.maxTokens;
  if (options.maxCost !== undefined) budget.maxCostUsd = options.maxCost;
  if (options.timeout !== undefined) budget.maxDurationMs = options.timeout * 1_000;
  return budget;
}

interface WorkflowOutput {
  /** The agents' events (the live tree). */
  agent: Renderer;
  workflow: (event: WorkflowEvent) => void;
  finish(outcome: WorkflowOutcome): void;
}

/**
 * text: the live tree of agents by phase and the workflow's own lines on stderr, its result on stdout;
 * json: the outcome as one object; stream-json: every event as a JSON line, the outcome last.
 */
function workflowOutput(format: OutputFormat, io: CliIo): WorkflowOutput {
  const line = (value: unknown) => io.stdout.write(`${JSON.stringify(value)}\n`);
  if (format === "stream-json") {
    return {
      // The workflow's own events come with its agents' (they are AgentEvents with its path).
      agent: { event: (event) => line({ v: EVENT_SCHEMA_VERSION, ...event }), finish: () => {} },
      workflow: () => {},
      finish: () => {},
    };
  }
  if (format === "json") {
    return {
      agent: { event: () => {}, finish: () => {} },
      workflow: () => {},
      finish: (outcome) => io.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`),
    };
  }
  const tree = withAgentTree(() => ({ event: () => {}, finish: () => {} }), {
    stdout: io.stdout,
    stderr: io.stderr,
    color: colorEnabled(io.stderr, io.env),
  });
  const note = (text: string) => {
    tree.interrupt?.();
    io.stderr.write(`${text}\n`);
    tree.resume();
  };
  return {
    agent: tree,
    workflow: (event) => {
      if (event.type === "workflow_start") {
        note(`workflow ${event.name} · run ${event.runId}${event.resumed ? " (resumed)" : ""}`);
      } else if (event.type === "workflow_log") note(`  ${event.message}`);
      else if (event.type === "workflow_failure") note(`  ✗ ${event.where}: ${event.error}`);
    },
    finish: (outcome) => {
      tree.finish(asOutcome(outcome));
      const { agents } = outcome;
      io.stderr.write(
        `workflow ${outcome.status} · ${agents.run} agents run, ${agents.replayed} replayed, ${agents.failed} failed · run ${outcome.runId}\n`,
      );
      if (outcome.status === "completed") {
        const { result } = outcome;
        io.stdout.write(`${typeof result === "string" ? result : JSON.stringify(result, null, 2)}\n`);
      } else {
        io.stderr.write(`error: ${outcome.error ?? outcome.status}\n`);
        io.stderr.write(`Resume it with: agentry workflow run --resume ${outcome.runId}\n`);
      }
    },
  };
}

/** The workflow's end as the loop's outcome, for the exit code and the tree's totals. */
function asOutcome(outcome: WorkflowOutcome): Outcome {
  const base = {
    text: "",
    turns: 0,
    usage: outcome.usage ?? emptyUsage(),
    durationMs: outcome.durationMs,
    sessionId: outcome.runId,
  };
  switch (outcome.status) {
    case "completed":
      return { ...base, status: "completed" };
    case "failed":
      return { ...base, status: "error", error: outcome.error ?? "the workflow failed" };
    case "cancelled":
      return { ...base, status: "aborted", reason: outcome.error ?? "cancelled" };
    case "budget_exceeded":
      return { ...base, status: "budget_exceeded", reason: outcome.error ?? "budget" };
  }
}

function printPlan(plan: WorkflowPlan, format: OutputFormat, io: CliIo): void {
  if (format !== "text") {
    io.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
    return;
  }
  const lines = [`workflow ${plan.name}${plan.description ? ` — ${plan.description}` : ""}`, "phases:"];
  for (const phase of plan.phases) {
    lines.push(
      `  ${phase.title}: ${phase.agents} agent${phase.agents === 1 ? "" : "s"}${phase.detail ? ` (${phase.detail})` : ""}`,
    );
  }
  lines.push(
    `estimated agents: at least ${plan.agents} (the dry run's agents answer with empty placeholders, so work that fans out over their results is not counted)`,
  );
  if (plan.stoppedEarly) lines.push(`the dry run stopped early: ${plan.stoppedEarly}`);
  lines.push("Nothing was run and no tokens were spent.");
  io.stdout.write(`${lines.join("\n")}\n`);
}
