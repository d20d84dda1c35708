import type { CompactionOptions } from "../../agent/compaction/compaction.ts";
import type { AgentRegistry } from "../../agents/agent-registry.ts";
import { userText } from "../../model/messages.ts";
import type { Model } from "../../model/model.ts";
import {
  createPermissionGate,
  type PermissionGate,
  type PermissionGateOptions,
} from "../../permissions/gate.ts";
import { currentOwner } from "../../tasks/owner.ts";
import { sweepOrphans } from "../../tasks/sweeper.ts";
import type { TaskMessage } from "../../tasks/task-record.ts";
import type { TaskStore } from "../../tasks/task-store.ts";
import { WorkspaceTaskStore } from "../../tasks/workspace/workspace-task-store.ts";
import { errorMessage } from "../../text/error-message.ts";
import type { AnyTool } from "../../tools/tool.ts";
import type { Child, ChildRecordKeeping } from "../child/child.ts";
import type { ChildHooksFactory, ChildInstructions, TraceparentFor } from "../child/child-config.ts";
import { type ChildPlacement, localPlacement } from "../run/child-placement.ts";
import type { RunDeps } from "../run/run-child.ts";
import { Semaphore } from "../run/semaphore.ts";
import { adoptChildren } from "../spawn/adopt-children.ts";
import { programChildren } from "../spawn/spawn-child.ts";
import type { SpawnDeps } from "../spawn/spawn-deps.ts";
import { createSpawnKit, type SpawnKit } from "../spawn/spawn-kit.ts";
import { spawnerHooks } from "../spawn/spawner-hooks.ts";
import type { CallerScope } from "./caller-scope.ts";
import { ChildTree } from "./child-tree.ts";
import type { DescendantCount } from "./descendant-count.ts";
import { resolveLimits, type SubagentLimits } from "./limits.ts";
import { Pulse } from "./pulse.ts";
import type { ProgramChildren, TaskApi } from "./task-api.ts";
import { TaskControl } from "./task-control.ts";
import { treeTaskApi } from "./tree-task-api.ts";

export interface SubagentOptions {
  /** The agents `task` may start. */
  registry: AgentRegistry;
  /** Builds a model from an id or alias (`sonnet`, `provider:model`); config aliases resolve here. */
  createModel: (id: string) => Model;
  /** The tools a definition's `tools` list picks from (the built-ins, MCP tools …). */
  baseTools: () => AnyTool[];
  /**
   * The root's permission gate, or what to build it from. Children get `gate.withRules(childRules)`,
   * so they share its mode, its prompt queue (asks reach the root's handler) and "always" approvals.
   */
  permission: PermissionGate | PermissionGateOptions;
  limits?: Partial<SubagentLimits>;
  /** Write children's transcripts under `<root workspace>/.agentry/sessions/` (default true). */
  persistSessions?: boolean;
  /** Where TaskRecords go (default: the workspace backend on the root's workspace). */
  taskStore?: TaskStore;
  /**
   * When an agent ends its turn while children it started still run, wait for them and give it
   * another turn with their notifications (default true: a run never exits with work orphaned). An
   * interactive UI that returns to its prompt instead may turn it off.
   */
  waitForChildren?: boolean;
  /**
   * Where children run besides this process, in order: a remote agent's placement (`a2aPlacement`
   * from `agentry-ai/remote` runs the children of `url` agents), a queue of workers … Each child runs
   * where the first that takes it puts it; this process comes last and takes every other child.
   */
  placements?: readonly ChildPlacement[];
  /**
   * Where the tree counts its descendants against `maxDescendants` (default: this process). A fleet's
   * (its Redis) holds the cap across machines: its children on workers count their own children there.
   */
  descendants?: DescendantCount;
  /** Where problems of the control plane go (a heartbeat that failed …). Default: a process warning. */
  onWarning?: (message: string) => void;
  /**
   * Automatic compaction for the whole tree: the root and every child get `compactionHooks` with these
   * options (each its own, after its other hooks). Default: none.
   */
  compaction?: CompactionOptions;
  /**
   * The project's instructions every local child gets, as the root has them (a definition may opt out
   * with `projectInstructions: false`). A queued child gets their section with its spec, not the hooks
   * that add a folder's own files; remote children never get them. Default: none.
   */
  instructions?: ChildInstructions;
  /**
   * Hooks each child built here gets before its own (Claude Code hooks that see its tool calls, the
   * skills its definition preloads …); children running elsewhere (a queue worker, a remote agent) run
   * without them. Default: none.
   */
  childHooks?: ChildHooksFactory;
  /**
   * The trace context each child carries to where it runs (tracing on): a queued or remote child's
   * spans then join this run's trace. Default: none.
   */
  traceparentFor?: TraceparentFor;
}

/**
 * The subagents of one root's tree, as `attachSubagents` returns them: its children by task_id, the
 * numbers and caps of the tree, its TaskStore and the owner's control loop. It wires the parts —
 * children are built, run and watched by functions that each get the few parts they use — and ends
 * them with `shutdown()` when the root's run is over.
 */
export class SubagentRuntime {
  readonly limits: SubagentLimits;
  readonly registry: AgentRegistry;
  readonly gate: PermissionGate;
  readonly baseTools: () => AnyTool[];
  readonly store: TaskStore;
  /** This process, written into the records it runs. */
  readonly owner: string;
  readonly control: TaskControl;
  /** The spawn tools and hooks of an agent of this tree. */
  readonly spawnKitFor: (caller: CallerScope) => SpawnKit;
  /** The project's instructions its local children get (`SubagentOptions.instructions`). */
  readonly instructions: ChildInstructions | undefined;
  private readonly tree: ChildTree;
  /** What the `task_*` tools of this tree may do. */
  private readonly tasks: TaskApi;
  private readonly slots: Semaphore;
  private readonly spawn: SpawnDeps;
  private readonly warn: (message: string) => void;
  private sweep: Promise<void> | undefined;
  /** Root sessions whose children that outlived their process were looked for (`adopt-children.ts`). */
  private readonly adopting = new Map<string, Promise<void>>();

  constructor(options: SubagentOptions, sessionsWorkspace: string) {
    const limits = resolveLimits(options.limits);
    this.limits = limits;
    this.registry = options.registry;
    this.instructions = options.instructions;
    this.baseTools = options.baseTools;
    this.gate =
      typeof options.permission === "function"
        ? options.permission
        : createPermissionGate(options.permission);
    this.store = options.taskStore ?? new WorkspaceTaskStore({ workspace: sessionsWorkspace });
    this.owner = currentOwner();
    const warn = options.onWarning ?? ((message) => process.emitWarning(message));
    this.warn = warn;
    this.tree = new ChildTree(limits.maxDescendants, options.descendants);
    this.slots = new Semaphore(limits.maxConcurrent);
    this.control = new TaskControl({
      store: this.store,
      owner: this.owner,
      limits,
      onCancelRequested: (taskId) =>
        this.cancelTask(taskId, "cancelled from another process (agentry tasks cancel)"),
      onMessages: (taskId, messages) => this.deliverMessages(taskId, messages),
      sweep: () => this.sweepNow(),
      warn,
    });
    const settled = new Pulse();
    const records: ChildRecordKeeping = { store: this.store, owner: this.owner, warn };
    const run: RunDeps = {
      slots: this.slots,
      maxConcurrent: limits.maxConcurrent,
      control: this.control,
      settled,
    };
    const placements = options.placements ?? [];
    const follows = placements.some((placement) => placement.follows !== undefined);
    const spawnKitFor = (caller: CallerScope): SpawnKit =>
      createSpawnKit(
        this.tasks,
        caller,
        spawnerHooks({
          tree: this.tree,
          store: this.store,
          settled,
          waitForChildren: options.waitForChildren ?? true,
          sweepOnce: () => this.sweepOnce(),
          ...(follows ? { adoptOnce: (sessionId: string) => this.adoptOnce(caller, sessionId) } : {}),
          warn,
        }),
      );
    const build = {
      treeId: this.tree.treeId,
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      ...(options.childHooks === undefined ? {} : { childHooks: options.childHooks }),
      ...(options.traceparentFor === undefined ? {} : { traceparentFor: options.traceparentFor }),
      baseRules: this.gate.rules,
      baseTools: options.baseTools,
      limits,
      spawnKitFor,
      warn,
      ...(options.compaction === undefined ? {} : { compaction: options.compaction }),
    };
    const spawn: SpawnDeps = {
      tree: this.tree,
      records,
      run,
      build,
      placements: [...placements, localPlacement(build)],
      registry: this.registry,
      createModel: options.createModel,
      sessionsWorkspace,
      persistSessions: options.persistSessions ?? true,
      timeoutMs: limits.timeoutMs,
      sweep: () => this.sweepNow(),
    };
    this.spawn = spawn;
    this.tasks = treeTaskApi({
      spawn,
      maxDepth: limits.maxDepth,
      wait: {
        store: this.store,
        tree: this.tree,
        settled,
        sweep: () => this.sweepNow(),
        limits,
      },
      cancel: (taskId, reason) => this.cancelTask(taskId, reason),
    });
    this.spawnKitFor = spawnKitFor;
  }

  /** Children started so far (continuations not counted). */
  get started(): number {
    return this.tree.started;
  }

  /** Children holding a running slot now. */
  get running(): number {
    return this.slots.running;
  }

  /** Children waiting for a running slot. */
  get queued(): number {
    return this.slots.queued;
  }

  /** The children of `caller` as a program (a workflow) starts them: each to its end (`programChildren`). */
  childrenOf(caller: CallerScope): ProgramChildren {
    return programChildren(this.spawn, caller);
  }

  child(taskId: string): Child | undefined {
    return this.tree.get(taskId);
  }

  /** Whether a child `parentSessionId` started is working (or queued) in this process. */
  hasRunningChildren(parentSessionId: string): boolean {
    return this.tree.childrenOf(parentSessionId).some((child) => child.active);
  }

  /**
   * Stops a working child and its working descendants (their bash processes die with their abort
   * signals). Returns those active here (one recording its outcome already ends by itself); a child
   * not working here is left alone.
   */
  cancelTask(taskId: string, reason: string): Child[] {
    const child = this.tree.get(taskId);
    if (!child) return [];
    const targets = [child, ...this.tree.descendantsOf(taskId)].filter((target) => target.active);
    for (const target of targets) if (cancellable(target)) target.cancel(reason);
    return targets;
  }

  /**
   * Messages another process sent a working child (`agentry ui`): each goes into its next turn, as
   * `task_send` puts it, until one is refused (the child is ending: the rest stay in its inbox).
   * Returns the ids delivered.
   */
  private deliverMessages(taskId: string, messages: readonly TaskMessage[]): string[] {
    const child = this.tree.get(taskId);
    const taken: string[] = [];
    if (child === undefined) return taken;
    for (const message of messages) {
      if (!child.send(userText(message.text))) break;
      taken.push(message.id);
    }
    return taken;
  }

  /**
   * Runs the orphan sweeper once per runtime (at the start of a run), so tasks of a process that
   * died are FAILED `orphaned` before anyone waits on them.
   */
  private sweepOnce(): Promise<void> {
    this.sweep ??= this.sweepNow();
    return this.sweep;
  }

  /** Once per root session: its children that outlived their process are followed again. */
  private adoptOnce(caller: CallerScope, sessionId: string): Promise<void> {
    let pending = this.adopting.get(sessionId);
    if (pending === undefined) {
      pending = adoptChildren(this.spawn, caller, sessionId, () => {}).catch((error: unknown) =>
        this.warn(`could not take up tasks that outlived their process: ${errorMessage(error)}`),
      );
      this.adopting.set(sessionId, pending);
    }
    return pending;
  }

  private async sweepNow(): Promise<void> {
    const { warn } = this;
    try {
      const report = await sweepOrphans(this.store, { staleAfterMs: this.limits.orphanTimeoutMs });
      for (const error of report.unreadable) warn(`task sweeper skipped a file: ${error.message}`);
    } catch (error) {
      warn(`task sweeper failed: ${errorMessage(error)}`);
    }
  }

  /**
   * Cancels every child still working (e.g. the root ended at its turn limit) and waits until their
   * records are final; stops the heartbeat and lets go of the children (their session locks). Call it
   * when the root's run is over.
   */
  async shutdown(reason = "its parent's run ended before it finished"): Promise<void> {
    const working = this.tree.all().filter((child) => child.active);
    for (const child of working) if (cancellable(child)) child.cancel(reason);
    await Promise.allSettled(working.map((child) => child.settled()));
    await this.control.stop();
    // Their transcripts are final: another process may continue them now.
    for (const child of this.tree.all()) child.close();
  }
}

/** Queued or running: a child whose record is being written already ends by itself. */
function cancellable(child: Child): boolean {
  return child.state.status === "queued" || child.state.status === "running";
}
