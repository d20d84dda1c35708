import type { Hooks } from "../../agent/hooks.ts";
import { Session } from "../../agent/session/session.ts";
import type { AgentRegistry } from "../../agents/agent-registry.ts";
import type { TraceRun } from "../../contracts/run-tracer.ts";
import type { Model } from "../../model/model.ts";
import { createPermissionGate, type PermissionMode } from "../../permissions/gate.ts";
import type { Ruleset } from "../../permissions/types.ts";
import type { CommandPolicy } from "../../sandbox/policy.ts";
import type { CallerScope, SubagentLimits } from "../../subagents/index.ts";
import type { ChildWorkspace, LocalChild, LoopChildSpec, SpawnKit } from "../../subagents/placement.ts";
import { type ChildCommandsInput, type ChildHost, childFromSpec } from "../../subagents/placement.ts";
import { nodeOperations } from "../../tools/node-operations.ts";
import type { AnyTool } from "../../tools/tool.ts";
import type { JobData } from "../job-data.ts";
import { workerWorkspace } from "../parent/job-workspace.ts";
import { remoteWorktree } from "./remote-worktree.ts";

/** What a worker runs children with: its own models, tools and sandbox — never the parent's keys. */
export interface WorkerRuntime {
  /** Builds a model from the job's `provider:model` id with this machine's keys and config. */
  createModel(id: string): Model;
  /** This worker's tools: a child gets those its spec names, never more (the spawn tools are its own kit's). */
  tools(): AnyTool[];
  /** How the child's commands run here: this machine's OS sandbox, derived from the child's rules. */
  commands(input: ChildCommandsInput): Promise<CommandPolicy | undefined>;
  /** Hides this machine's secrets in tool output. */
  redact?: (text: string) => string;
  /**
   * Whether a job may run in `bypass` mode. Whoever can write to the fleet's Redis writes the jobs, so
   * by default a worker does not take a job's word for it: `bypass` runs as `accept-edits` and no
   * command leaves the OS sandbox (`jobPermissions`). `agentry worker --allow-bypass` turns this off.
   */
  allowBypass?: boolean;
  /**
   * This worker's ceiling on the limits a job's tree brings for the children its child starts here
   * (`maxDepth`, `maxDescendants`, `maxConcurrent`): the smaller of the two holds. Default: the job's.
   */
  limits?: Partial<Pick<SubagentLimits, "maxDepth" | "maxDescendants" | "maxConcurrent">>;
  /** The agents the children a job's child starts here may be (default: the built-ins). */
  agents?: () => AgentRegistry;
  /** Traces each job's child under the trace context its spec carries (tracing on here). */
  trace?: TraceRun;
}

/**
 * The rules and mode a job's child runs with on this worker: its spec's, narrowed unless the worker
 * allows bypass — `bypass` becomes `accept-edits` (edits allowed, commands the sandbox covers allowed,
 * anything else asked, and there is nobody to ask) and leaving the sandbox is denied, last so it wins.
 */
export function jobPermissions(
  spec: Pick<LoopChildSpec, "rules" | "mode">,
  allowBypass: boolean,
): { rules: Ruleset; mode: PermissionMode } {
  if (allowBypass) return { rules: spec.rules, mode: spec.mode };
  return {
    rules: [...spec.rules, { permission: "unsandboxed", pattern: "*", action: "deny" }],
    mode: spec.mode === "bypass" ? "accept-edits" : spec.mode,
  };
}

/** What the worker adds to a job's child besides its spec: hooks (its lock's), its own children's kit. */
export interface WorkerExtras {
  hooks: readonly Hooks[];
  spawnKit?: (scope: CallerScope) => SpawnKit;
}

/**
 * The child its job's spec describes, made here (`childFromSpec`) with this worker as its host: its
 * models, tools, sandbox, and a gate with nobody to ask, under the worker's ceiling (`jobPermissions`).
 * Its session is in memory only, filled with the job's history: the conversation is the parent's,
 * which appends what this activation adds.
 */
export function queuedChild(
  data: JobData,
  runtime: WorkerRuntime,
  workspace: ChildWorkspace,
  extras: WorkerExtras,
): Promise<LocalChild> {
  const { spec } = data;
  const host: ChildHost = {
    model: (id) => runtime.createModel(id),
    tools: () => runtime.tools(),
    gate: () => createPermissionGate(jobPermissions(spec, runtime.allowBypass === true)),
    commands: (input) => runtime.commands(input),
    ops: nodeOperations,
    hooks: () => extras.hooks,
    ...(runtime.redact === undefined ? {} : { redact: runtime.redact }),
    ...(extras.spawnKit === undefined ? {} : { spawnKit: extras.spawnKit }),
  };
  return childFromSpec(spec, host, workspace, async () => {
    const session = await Session.create({
      workspace: workspace.path,
      agentName: spec.agent.name,
      model: spec.model,
      id: spec.sessionId,
      persist: false,
    });
    for (const message of data.history) await session.append(message);
    return session;
  });
}

/** The job's workspace here: the parent's folder (a shared disk), or a worktree from its snapshot. */
export async function queuedWorkspace(
  data: JobData,
  jobId: string,
  cacheDir: string,
): Promise<ChildWorkspace> {
  const job = data.workspace;
  if (job.mode === "worktree") return remoteWorktree(job, cacheDir, jobId);
  const path = await workerWorkspace(job);
  return { mode: job.mode, path, reopen: async () => {}, finish: async () => ({}) };
}
