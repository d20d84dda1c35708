import { readFileSync } from "node:fs";
import { z } from "zod";
import type { AgentConfig } from "../agent/config.ts";
import type { Hooks } from "../agent/hooks.ts";
import type { WorkflowOutcome } from "../contracts/workflow-events.ts";
import { isAgentryError } from "../errors/agentry-error.ts";
import type { CallerScope, SubagentRuntime } from "../subagents/index.ts";
import type { RunJournals } from "../tasks/task-store.ts";
import { type AnyTool, type Tool, type ToolContext, ToolError } from "../tools/tool.ts";
import { planWorkflow, type WorkflowPlan } from "./plan-workflow.ts";
import { ReplayJournal } from "./replay-journal.ts";
import { callerScopeOf, runtimeHost } from "./run-workflow.ts";
import { type LoadedWorkflow, loadWorkflow, savedWorkflowLoader } from "./saved-workflows.ts";
import { type StartedWorkflow, startWorkflow } from "./start-workflow.ts";
import { parseWorkflowSource } from "./workflow-source.ts";

const DESCRIPTION = readFileSync(new URL("./workflow-tool.md", import.meta.url), "utf8").trim();

export const workflowToolSchema = z.object({
  script: z
    .string()
    .min(1)
    .optional()
    .describe("The workflow script (JavaScript), starting with export const meta = {...}."),
  name: z
    .string()
    .min(1)
    .optional()
    .describe("A saved workflow's name, or a script file's path, instead of script."),
  args: z.unknown().optional().describe("The script's args (any JSON value)."),
  run_in_background: z
    .boolean()
    .optional()
    .describe("Default true: return the run id at once; the result comes as a <task-notification>."),
  resume_run_id: z
    .string()
    .min(1)
    .optional()
    .describe("Run an earlier run again: its finished agent calls are replayed from their results."),
  dry_run: z
    .boolean()
    .optional()
    .describe("Only return the plan (phases, an estimated agent count) without running anything."),
});

export interface WorkflowToolDeps {
  runtime: SubagentRuntime;
  /** The agent that gets the tool: its rules, tools, model and sandbox are its workflow agents'. */
  scope: CallerScope;
  homeDir: string;
}

/** The `workflow` tool of an agent, and the hooks that keep its runs from being orphaned. */
export interface WorkflowKit {
  tool: AnyTool;
  hooks: Hooks;
}

/**
 * Gives a root agent the opt-in `workflow` tool: its workflows' agents are its children in `runtime`'s
 * tree. The tool's hooks go first, so a run it waits for at turn end is notified by the spawner's.
 */
export function withWorkflows(config: AgentConfig, runtime: SubagentRuntime, homeDir: string): AgentConfig {
  const kit = createWorkflowKit({ runtime, scope: callerScopeOf(config, runtime), homeDir });
  return { ...config, tools: [...config.tools, kit.tool], hooks: [kit.hooks, ...(config.hooks ?? [])] };
}

/**
 * The opt-in `workflow` tool (the user or config enables orchestration). Its runs are the agent's
 * background tasks: a record under the agent's session, its result as a notification. When the agent
 * ends its turn with a run still going, the hooks wait for it (the notification then gives the agent
 * another turn); when its run ends, its workflows are cancelled and recorded.
 */
export function createWorkflowKit(deps: WorkflowToolDeps): WorkflowKit {
  const running = new Map<string, { sessionId: string; run: StartedWorkflow }>();
  const tool: Tool<typeof workflowToolSchema> = {
    name: "workflow",
    description: DESCRIPTION,
    schema: workflowToolSchema,
    async execute(input, ctx) {
      const loaded = await scriptOf(input, ctx, deps.homeDir, deps.runtime.store.journals);
      if (input.dry_run === true) {
        const plan = await planWorkflow(loaded.source, input.args ?? null);
        return { content: planText(plan), details: { plan } };
      }
      const run = await startWorkflow(runtimeHost(deps.runtime, deps.scope, ctx), {
        source: loaded.source,
        typescript: loaded.typescript,
        args: input.args ?? null,
        ...(input.resume_run_id === undefined ? {} : { resume: input.resume_run_id }),
        loadWorkflow: savedWorkflowLoader({
          cwd: ctx.workspace,
          projectDir: ctx.workspace,
          homeDir: deps.homeDir,
        }),
      }).catch((error: unknown) => {
        throw isAgentryError(error) ? new ToolError(error.message) : error;
      });
      const name = loaded.source.meta.name;
      if (input.run_in_background === false) {
        const outcome = await run.done;
        await deps.runtime.store.markDelivered([run.runId]).catch(() => []);
        return { content: outcomeText(outcome), details: { runId: run.runId, status: outcome.status } };
      }
      running.set(run.runId, { sessionId: ctx.agent.sessionId, run });
      void run.done.finally(() => running.delete(run.runId));
      return {
        content: `Workflow ${name} started in the background as run ${run.runId} (a task: task_output, task_cancel and agentry tasks see it). Its result comes as a <task-notification> when it finishes; go on meanwhile.`,
        details: { runId: run.runId, status: "running", background: true },
      };
    },
  };
  const runsOf = (sessionId: string) =>
    [...running.values()].filter((entry) => entry.sessionId === sessionId).map((entry) => entry.run);
  const hooks: Hooks = {
    async onTurnEnd({ agent, toolCallsMade, signal }) {
      if (toolCallsMade) return undefined;
      // The run ends its turn with a workflow going: wait for one to finish, so the spawner's hooks
      // (after these) deliver its notification and the agent takes another turn.
      const runs = runsOf(agent.sessionId);
      if (runs.length === 0) return undefined;
      await Promise.race([
        Promise.race(runs.map((run) => run.done)),
        new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true })),
      ]);
      return undefined;
    },
    async onRunEnd({ agent }) {
      const runs = runsOf(agent.sessionId);
      for (const run of runs) run.cancel("the agent that started it ended");
      await Promise.allSettled(runs.map((run) => run.done));
    },
  };
  return { tool, hooks };
}

async function scriptOf(
  input: z.infer<typeof workflowToolSchema>,
  ctx: ToolContext,
  homeDir: string,
  journals: RunJournals | undefined,
): Promise<LoadedWorkflow> {
  try {
    if (input.script !== undefined) {
      return { source: await parseWorkflowSource(input.script, "workflow-script.js"), typescript: false };
    }
    if (input.name !== undefined) {
      return await loadWorkflow(input.name, { cwd: ctx.workspace, projectDir: ctx.workspace, homeDir });
    }
    if (input.resume_run_id !== undefined) {
      const { header } = await ReplayJournal.open(ctx.workspace, input.resume_run_id, journals);
      const source = await parseWorkflowSource(header.source, header.origin, {
        typescript: header.typescript,
      });
      return { source, typescript: header.typescript };
    }
  } catch (error) {
    throw isAgentryError(error) ? new ToolError(error.message) : error;
  }
  throw new ToolError("Give the workflow's script, the name of a saved workflow, or resume_run_id.");
}

function planText(plan: WorkflowPlan): string {
  const phases = plan.phases.map(
    (phase) => `- ${phase.title}: ${phase.agents} agent${phase.agents === 1 ? "" : "s"}`,
  );
  return [
    `Plan of workflow ${plan.name}: at least ${plan.agents} agent${plan.agents === 1 ? "" : "s"} (work that fans out over agents' results is not counted).`,
    ...phases,
    ...(plan.stoppedEarly === undefined ? [] : [`The dry run stopped early: ${plan.stoppedEarly}`]),
    "Nothing ran. Call workflow again without dry_run to run it.",
  ].join("\n");
}

/** A finished run as the model reads it: status, result (JSON) or error, and what it ran. */
function outcomeText(outcome: WorkflowOutcome): string {
  const { agents } = outcome;
  const lines = [
    `Workflow ${outcome.name} (run ${outcome.runId}) ${outcome.status}: ${agents.run} agents run, ${agents.replayed} replayed, ${agents.failed} failed.`,
  ];
  if (outcome.status === "completed")
    lines.push(`<result>\n${JSON.stringify(outcome.result ?? null, null, 2)}\n</result>`);
  else
    lines.push(
      `Error: ${outcome.error ?? outcome.status}. Fix the script if needed and run it again with resume_run_id "${outcome.runId}".`,
    );
  for (const failure of outcome.failures) lines.push(`Failed item (${failure.where}): ${failure.error}`);
  return lines.join("\n");
}
