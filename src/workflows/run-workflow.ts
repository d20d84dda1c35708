import { homedir } from "node:os";
import type { AgentConfig } from "../agent/config.ts";
import { newSessionId } from "../agent/session/session-id.ts";
import type { AgentEvent } from "../contracts/events.ts";
import type { WorkflowOutcome } from "../contracts/workflow-events.ts";
import type { CallerScope, SubagentOptions, SubagentRuntime } from "../subagents/index.ts";
import { attachSubagents, isSpawnTool } from "../subagents/index.ts";
import { savedWorkflowLoader } from "./saved-workflows.ts";
import { type StartWorkflowOptions, startWorkflow, type WorkflowHost } from "./start-workflow.ts";
import type { WorkflowBudget } from "./workflow-budget.ts";
import { parseWorkflowSource, type WorkflowSource } from "./workflow-source.ts";

export interface RunWorkflowOptions {
  /** The script's text (parsed here), or a parsed source. */
  script: string | WorkflowSource;
  /** The script is TypeScript (its types are stripped). */
  typescript?: boolean;
  args?: unknown;
  /** Continue this run: its finished agent calls are replayed from its journal, the rest run. */
  resume?: string;
  budget?: WorkflowBudget;
  /**
   * What the workflow's agents are children of: the model `inherit` means, the tools they inherit, the
   * workspace, I/O and how commands run (its sandbox). Its `name`, prompt and hooks are not used.
   */
  config: AgentConfig;
  /** The subagent runtime's options: the agents, models, permissions and limits of the tree. */
  subagents: SubagentOptions;
  signal?: AbortSignal;
  /** The events of the run: its agents' and its own (`workflow_*`), each with its `agentPath`. */
  onEvent?: (event: AgentEvent) => void;
  /** Told the run id as soon as the run's record exists. */
  onStart?: (runId: string) => void;
  /** Where `workflow(name)` finds saved workflows besides the project (default: the user's home). */
  homeDir?: string;
}

/**
 * Runs a workflow script with no model in the loop: its agents are children of a root made from
 * `config`, with the permissions, sandbox, budgets and limits of `subagents`. Resolves to how it
 * ended; a script that cannot be read throws `WorkflowScriptError`.
 */
export async function runWorkflow(options: RunWorkflowOptions): Promise<WorkflowOutcome> {
  const source =
    typeof options.script === "string"
      ? await parseWorkflowSource(options.script, "inline", { typescript: options.typescript ?? false })
      : options.script;
  const { runtime } = attachSubagents({ ...options.config, depth: 0 }, options.subagents);
  try {
    const host = workflowHost(runtime, options.config, {
      emit: (event) => options.onEvent?.(event),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const start: StartWorkflowOptions = {
      source,
      typescript: options.typescript ?? false,
      args: options.args ?? null,
      ...(options.resume === undefined ? {} : { resume: options.resume }),
      ...(options.budget === undefined ? {} : { budget: options.budget }),
      loadWorkflow: savedWorkflowLoader({
        cwd: options.config.workspace,
        projectDir: options.config.workspace,
        homeDir: options.homeDir ?? homedir(),
      }),
    };
    const run = await startWorkflow(host, start);
    options.onStart?.(run.runId);
    return await run.done;
  } finally {
    await runtime.shutdown("its workflow ended");
  }
}

/**
 * A workflow's host over a subagent runtime: its agents are children of the agent `config` describes
 * (its tools, model, workspace, sandbox), asking permissions through the runtime's gate.
 */
export function workflowHost(
  runtime: SubagentRuntime,
  config: AgentConfig,
  run: { emit: (event: AgentEvent) => void; signal?: AbortSignal; sessionId?: string },
): WorkflowHost {
  const scope = callerScopeOf(config, runtime);
  const agent = {
    path: config.agentPath ?? [],
    name: config.name,
    sessionId: run.sessionId ?? newSessionId({ prefix: "wfroot" }),
    depth: config.depth ?? 0,
  };
  const context: WorkflowHost["context"] = {
    workspace: config.workspace,
    ops: config.ops,
    ...(config.commands === undefined ? {} : { commands: config.commands }),
    ask: (request) => runtime.gate(request, { path: agent.path.length > 0 ? agent.path : ["workflow"] }),
    progress: () => {},
    emit: run.emit,
    agent,
  };
  return runtimeHost(runtime, scope, context, run.signal);
}

/**
 * The one place a workflow's host is made over a subagent runtime (`workflowHost`, the `workflow`
 * tool): its agents are children of `scope` in the runtime's tree, started straight through
 * `programChildren` (`childrenOf`); its run's record and journal go to the runtime's store.
 */
export function runtimeHost(
  runtime: SubagentRuntime,
  scope: CallerScope,
  context: WorkflowHost["context"],
  signal?: AbortSignal,
): WorkflowHost {
  return {
    children: runtime.childrenOf(scope),
    store: runtime.store,
    context,
    ...(signal === undefined ? {} : { signal }),
  };
}

/** What the agent `config` describes passes on to its workflow's agents (as `task` would to its children). */
export function callerScopeOf(config: AgentConfig, runtime: SubagentRuntime): CallerScope {
  return {
    tools: config.tools.filter((tool) => !isSpawnTool(tool.name) && tool.name !== "workflow"),
    gate: runtime.gate,
    model: config.model,
    ops: config.ops,
    ...(config.commands === undefined ? {} : { commands: config.commands }),
    ...(config.toolOutputLimit === undefined ? {} : { toolOutputLimit: config.toolOutputLimit }),
    ...(config.redact === undefined ? {} : { redact: config.redact }),
  };
}
