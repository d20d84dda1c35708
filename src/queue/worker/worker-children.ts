import type { Redis } from "ioredis";
import { AgentRegistry } from "../../agents/agent-registry.ts";
import { builtinAgents } from "../../agents/builtin-agents.ts";
import type { CallerScope, SubagentLimits } from "../../subagents/index.ts";
import { SubagentRuntime } from "../../subagents/index.ts";
import type { LoopChildSpec, SpawnKit } from "../../subagents/placement.ts";
import type { TaskStore } from "../../tasks/task-store.ts";
import { fleetDescendants } from "../fleet-descendants.ts";
import type { WorkerRuntime } from "./worker-host.ts";

/** What a worker gives the children of the children it runs. */
export interface WorkerChildrenDeps {
  runtime: WorkerRuntime;
  commands: Redis;
  prefix: string;
  warn: (message: string) => void;
}

/** A queued child's own children on this worker: its spawn tools, and how to end them with its job. */
export interface WorkerChildren {
  spawnKit(scope: CallerScope): SpawnKit;
  /** Cancels those still working and waits for their records (once; again is a no-op). */
  close(): Promise<void>;
}

/**
 * The runtime of a queued child's own children (its spec lets it start some: it is below the tree's
 * depth limit). They run here, in this worker's process, as in-process children of the child, not on
 * the queue again: a child's children work on its files (DESIGN §3), which on a worker without a
 * shared disk exist only here (its worktree), and a job that waited on jobs of its own queue could hold
 * every worker's slot while its children wait for one. So they come and go with the job: under the
 * child's gate (its rules with their `narrowOnly` marks, narrowed again for each of them; nobody to
 * ask), with this worker's models, tools and sandbox, in its workspace, their records in the fleet's
 * store; the job's end, or its lock lost, cancels them. The tree's limits travel with the spec — its
 * depth limit, and its descendants counted on the fleet's Redis with the parent's — and never go past
 * this worker's own (`WorkerRuntime.limits`). The agents they may be are this worker's
 * (`WorkerRuntime.agents`, default the built-ins): a job never brings definitions of its own.
 * `store` is where their records go: the fleet's, so any machine sees and cancels them.
 */
export function workerChildren(
  deps: WorkerChildrenDeps,
  spec: LoopChildSpec,
  workspace: string,
  store: TaskStore,
): WorkerChildren {
  const ceiling = deps.runtime.limits ?? {};
  const limits: Partial<SubagentLimits> = {
    maxDepth: Math.min(spec.tree.maxDepth, ceiling.maxDepth ?? spec.tree.maxDepth),
    maxDescendants: Math.min(spec.tree.maxDescendants, ceiling.maxDescendants ?? spec.tree.maxDescendants),
    ...(ceiling.maxConcurrent === undefined ? {} : { maxConcurrent: ceiling.maxConcurrent }),
    ...(spec.limits.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: spec.limits.stallTimeoutMs }),
    ...(spec.limits.maxTokens === undefined ? {} : { maxTokens: spec.limits.maxTokens }),
    ...(spec.limits.maxDurationMs === undefined ? {} : { maxDurationMs: spec.limits.maxDurationMs }),
  };
  // Built at the child's first spawn kit: its gate (the scope's) is the tree's root gate here.
  let children: SubagentRuntime | undefined;
  let closing: Promise<void> | undefined;
  return {
    spawnKit(scope) {
      children ??= new SubagentRuntime(
        {
          registry: deps.runtime.agents?.() ?? new AgentRegistry({ definitions: builtinAgents() }),
          createModel: (id) => deps.runtime.createModel(id),
          baseTools: () => deps.runtime.tools(),
          permission: scope.gate,
          limits,
          descendants: fleetDescendants(deps.commands, deps.prefix, spec.tree.id),
          taskStore: store,
          onWarning: deps.warn,
        },
        workspace,
      );
      return children.spawnKitFor(scope);
    },
    close() {
      closing ??= children?.shutdown("its parent's job ended") ?? Promise.resolve();
      return closing;
    },
  };
}
