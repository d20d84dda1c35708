import type { AgentConfig } from "../agent/config.ts";
import type { Hooks } from "../agent/hooks.ts";
import type { Session } from "../agent/session.ts";
import type { AgentRegistry } from "../agents/agent-registry.ts";
import type { AgentDefinition } from "../agents/definition.ts";
import { AgentryError } from "../errors/agentry-error.ts";
import type { Message, UserMessage } from "../model/messages.ts";
import type { Model } from "../model/model.ts";
import {
  createPermissionGate,
  type PermissionGate,
  type PermissionGateOptions,
} from "../permissions/gate.ts";
import type { Ruleset } from "../permissions/types.ts";
import { currentOwner } from "../tasks/owner.ts";
import { sweepOrphans } from "../tasks/sweeper.ts";
import type { TaskStore } from "../tasks/task-store.ts";
import { WorkspaceTaskStore } from "../tasks/workspace-task-store.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { CallerScope } from "./caller-scope.ts";
import type { ChildExecution } from "./child-execution.ts";
import type { ChildWorkspace } from "./child-workspace.ts";
import { resolveLimits, type SubagentLimits } from "./limits.ts";
import { Pulse } from "./pulse.ts";
import { Semaphore } from "./semaphore.ts";
import { TaskControl } from "./task-control.ts";

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
  /** Where problems of the control plane go (a heartbeat that failed …). Default: a process warning. */
  onWarning?: (message: string) => void;
}

/** The spawn tools of one agent and the hooks that feed it its children's notifications. */
export interface SpawnKit {
  tools: AnyTool[];
  hooks: Hooks;
}

/** One child that ran (or runs) in this tree, kept so `task_id` and the `task_*` tools can reach it. */
export interface ChildRecord {
  taskId: string;
  definition: AgentDefinition;
  /** The short description it was started with (shown again when it is continued). */
  description: string;
  /** The caller's session: only it may continue or steer this child. */
  parentSessionId: string;
  /** The caller's agent id (last segment of its path): the folder its TaskRecords are stored in. */
  parentAgentId: string;
  config: AgentConfig;
  /** The child's permission rules (its definition's plus every deny of its parent). */
  rules: Ruleset;
  session: Session;
  workspace: ChildWorkspace;
  /** How a continuation runs unless the call says otherwise: its first run's mode, or promoted. */
  background: boolean;
  /** Messages `task_send` queued for the child's next turn. */
  mailbox: UserMessage[];
  /** The current run, or the last one. */
  execution: ChildExecution | undefined;
  /** True from the moment a run is requested until its TaskRecord holds the outcome. */
  running: boolean;
}

/** The model asked for one more child than a run may start (`maxDescendants`). */
export class DescendantLimitReachedError extends AgentryError {
  override readonly name = "DescendantLimitReachedError";
  readonly kind = "model";
}

/**
 * The state one root shares with its whole tree: limits, the concurrency semaphore, the descendant
 * count, child numbering, the children by task_id, the TaskStore and the owner's control loop.
 */
export class SubagentRuntime {
  readonly limits: SubagentLimits;
  readonly registry: AgentRegistry;
  readonly createModel: (id: string) => Model;
  readonly baseTools: () => AnyTool[];
  readonly gate: PermissionGate;
  readonly persistSessions: boolean;
  readonly waitForChildren: boolean;
  /** Where children's transcripts are stored: the root's workspace. */
  readonly sessionsWorkspace: string;
  readonly store: TaskStore;
  /** This process (`currentOwner()`), written into the records it runs. */
  readonly owner: string;
  /** Fires whenever a child's run settles (its record is final). */
  readonly settled = new Pulse();
  readonly control: TaskControl;
  readonly warn: (message: string) => void;
  /** Children being rebuilt from the store, so two calls for one id share one rebuild. */
  readonly restoring = new Map<string, Promise<ChildRecord>>();
  /** Builds the spawn tools and hooks of an agent in this tree (injected to keep the modules acyclic). */
  readonly spawnKitFor: (caller: CallerScope) => SpawnKit;
  private readonly slots: Semaphore;
  private descendants = 0;
  private readonly numbers = new Map<string, number>();
  private readonly children = new Map<string, ChildRecord>();
  private readonly transcripts = new Map<string, readonly Message[]>();
  /** `task` calls in flight, by the caller's session: a child being started is not `children` yet. */
  private readonly calls = new Map<string, Set<Promise<unknown>>>();
  private sweep: Promise<void> | undefined;

  constructor(
    options: SubagentOptions,
    sessionsWorkspace: string,
    spawnKitFor: (caller: CallerScope) => SpawnKit,
  ) {
    this.limits = resolveLimits(options.limits);
    this.registry = options.registry;
    this.createModel = options.createModel;
    this.baseTools = options.baseTools;
    this.gate =
      typeof options.permission === "function"
        ? options.permission
        : createPermissionGate(options.permission);
    this.persistSessions = options.persistSessions ?? true;
    this.waitForChildren = options.waitForChildren ?? true;
    this.sessionsWorkspace = sessionsWorkspace;
    this.store = options.taskStore ?? new WorkspaceTaskStore({ workspace: sessionsWorkspace });
    this.owner = currentOwner();
    this.warn = options.onWarning ?? ((message) => process.emitWarning(message));
    this.spawnKitFor = spawnKitFor;
    this.slots = new Semaphore(this.limits.maxConcurrent);
    this.control = new TaskControl({
      store: this.store,
      owner: this.owner,
      limits: this.limits,
      onCancelRequested: (taskId) =>
        this.cancelTask(taskId, "cancelled from another process (agentry tasks cancel)"),
      sweep: () => this.sweepNow(),
      warn: this.warn,
    });
  }

  /** Children started so far (continuations not counted). */
  get started(): number {
    return this.descendants;
  }

  get running(): number {
    return this.slots.running;
  }

  get queued(): number {
    return this.slots.queued;
  }

  /** Counts a new child against `maxDescendants`; throws `DescendantLimitReachedError` at the cap. */
  reserveDescendant(): void {
    if (this.descendants >= this.limits.maxDescendants) {
      throw new DescendantLimitReachedError(
        `Refused: this run already started ${this.descendants} subagents, the limit per run (maxDescendants ${this.limits.maxDescendants}). ` +
          "Do the remaining work yourself, or continue an existing child with its task_id.",
      );
    }
    this.descendants++;
  }

  /** Gives back a reservation of a child that never started. */
  releaseDescendant(): void {
    this.descendants = Math.max(0, this.descendants - 1);
  }

  /** `explore` → 1, 2, 3 … unique in the tree, so agent paths never collide. */
  nextNumber(agentType: string): number {
    const next = (this.numbers.get(agentType) ?? 0) + 1;
    this.numbers.set(agentType, next);
    return next;
  }

  /** A child restored from the store keeps its number; new children count on from it. */
  noteNumber(agentType: string, taken: number): void {
    if (taken > (this.numbers.get(agentType) ?? 0)) this.numbers.set(agentType, taken);
  }

  /** Waits (FIFO, abortable) for one of the `maxConcurrent` running slots; returns its release. */
  /** A running slot when one is free now, so a new child's record can be created RUNNING at once. */
  tryAcquireSlot(): (() => void) | undefined {
    return this.slots.tryAcquire();
  }

  acquireSlot(signal: AbortSignal): Promise<() => void> {
    return this.slots.acquire(signal);
  }

  remember(record: ChildRecord): void {
    this.children.set(record.taskId, record);
  }

  child(taskId: string): ChildRecord | undefined {
    return this.children.get(taskId);
  }

  /** task_ids of the children `parentSessionId` started in this process. */
  childrenOf(parentSessionId: string): string[] {
    return this.localChildren(parentSessionId).map((c) => c.taskId);
  }

  /** Keeps a `task` call of `parentSessionId` in view until it returns (see `callsOf`). */
  trackCall<T>(parentSessionId: string, call: Promise<T>): Promise<T> {
    const calls = this.calls.get(parentSessionId) ?? new Set();
    this.calls.set(parentSessionId, calls);
    const tracked = call.finally(() => {
      calls.delete(tracked);
      if (calls.size === 0) this.calls.delete(parentSessionId);
    });
    calls.add(tracked);
    return tracked;
  }

  /** The `task` calls of `parentSessionId` still in flight, starting or waiting for a child. */
  callsOf(parentSessionId: string): Promise<unknown>[] {
    return [...(this.calls.get(parentSessionId) ?? [])];
  }

  localChildren(parentSessionId: string): ChildRecord[] {
    return [...this.children.values()].filter((c) => c.parentSessionId === parentSessionId);
  }

  /** Whether a child `parentSessionId` started is running (or queued) in this process. */
  hasRunningChildren(parentSessionId: string): boolean {
    return this.localChildren(parentSessionId).some((child) => child.running);
  }

  /** Every local descendant of a child (children of its session, recursively). */
  descendantsOf(taskId: string): ChildRecord[] {
    const record = this.children.get(taskId);
    if (!record) return [];
    const direct = this.localChildren(record.session.id);
    return direct.flatMap((child) => [child, ...this.descendantsOf(child.taskId)]);
  }

  /**
   * Stops a running child and its running descendants (their bash processes die with their abort
   * signals). Returns the records cancelled; a child that is not running here is left alone.
   */
  cancelTask(taskId: string, reason: string): ChildRecord[] {
    const record = this.children.get(taskId);
    if (!record) return [];
    const targets = [record, ...this.descendantsOf(taskId)].filter((child) => child.running);
    for (const child of targets) child.execution?.cancel(reason);
    return targets;
  }

  /** The live transcript of an agent in this tree, as its last model call saw it (for `fork`). */
  transcriptOf(sessionId: string): readonly Message[] | undefined {
    return this.transcripts.get(sessionId);
  }

  trackTranscript(sessionId: string, messages: readonly Message[]): void {
    this.transcripts.set(sessionId, messages);
  }

  /**
   * Runs the orphan sweeper once per runtime (at the start of a run), so tasks of a process that
   * died are FAILED `orphaned` before anyone waits on them.
   */
  sweepOnce(): Promise<void> {
    this.sweep ??= this.sweepNow();
    return this.sweep;
  }

  async sweepNow(): Promise<void> {
    try {
      const report = await sweepOrphans(this.store, { staleAfterMs: this.limits.orphanTimeoutMs });
      for (const error of report.unreadable) this.warn(`task sweeper skipped a file: ${error.message}`);
    } catch (error) {
      this.warn(`task sweeper failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Cancels every child still running (e.g. the root ended at its turn limit) and waits until their
   * records are final; stops the heartbeat and releases the children's session locks. Call it when
   * the root's run is over.
   */
  async shutdown(reason = "its parent's run ended before it finished"): Promise<void> {
    const running = [...this.children.values()].filter((child) => child.running);
    for (const child of running) child.execution?.cancel(reason);
    await Promise.allSettled(running.map((child) => child.execution?.done));
    await this.control.stop();
    // Their transcripts are final: another process may continue them now.
    for (const child of this.children.values()) child.session.close();
  }
}
