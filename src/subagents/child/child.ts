import type { AgentDefinition } from "../../agents/definition.ts";
import type { AgentEvent } from "../../contracts/events.ts";
import type { Outcome } from "../../contracts/outcome.ts";
import { emptyUsage, type UserMessage } from "../../model/messages.ts";
import { identityLabel } from "../../state/process-identity.ts";
import type { ExecutorRef, NewTaskRecord, TaskRecord } from "../../tasks/task-record.ts";
import type { TaskStore, TaskUpdate } from "../../tasks/task-store.ts";
import { errorMessage } from "../../text/error-message.ts";
import { ActivityWriter } from "../report/activity-writer.ts";
import type { ChildRunReport } from "../report/child-run-report.ts";
import { finishPatch } from "../report/task-result.ts";
import { activationOutcome } from "../run/activation-kit.ts";
import type { Activation, ChildExecutor } from "../run/executor.ts";
import {
  type ChildEvent,
  type ChildState,
  IllegalChildTransitionError,
  isActive,
  nextState,
} from "./child-state.ts";

/** Who a child is: what its record says about it, whatever executor runs it. */
export interface ChildIdentity {
  taskId: string;
  definition: AgentDefinition;
  /** The short description it was started with (shown again when it is continued). */
  description: string;
  /** The caller's session: only it may continue or steer this child. */
  parentSessionId: string;
  /** The caller's agent id (last segment of its path): the folder its TaskRecords are stored in. */
  parentAgentId: string;
  agentPath: readonly string[];
  /** Its transcript's id. */
  sessionId: string;
  /** `provider:model` it runs on. */
  model: string;
  /** Its turn limit, to explain a `max_turns` ending. */
  maxTurns: number;
}

/** Where a child's transitions are persisted. */
export interface ChildRecordKeeping {
  store: TaskStore;
  /** This process, written into the records it runs. */
  owner: string;
  /** Where a record that could not be written is reported; the child goes on. */
  warn(message: string): void;
}

/** How far the current (or last) activation got, from the child's own events; `startedAt` is when it was asked to work. */
export interface ChildProgress {
  startedAt: number;
  turns: number;
  lastTool: string | undefined;
  toolsInFlight: number;
}

/**
 * One child of the tree. Its life is `state` (see `child-state.ts`); each transition is a method that
 * checks it against `nextState`, applies it at once (so two callers cannot both continue a child)
 * and persists what it changes in the child's TaskRecord. Where the child runs is its `executor`.
 */
export class Child implements ChildIdentity {
  readonly taskId: string;
  readonly definition: AgentDefinition;
  readonly description: string;
  readonly parentSessionId: string;
  readonly parentAgentId: string;
  readonly agentPath: readonly string[];
  readonly sessionId: string;
  readonly model: string;
  readonly maxTurns: number;
  readonly executor: ChildExecutor;
  progress: ChildProgress = { startedAt: Date.now(), turns: 0, lastTool: undefined, toolsInFlight: 0 };
  private current: ChildState;
  /** How a continuation runs unless the call says otherwise: its first run's mode, or promoted. */
  private mode: "sync" | "background";
  private readonly records: ChildRecordKeeping;
  private activation: Activation | undefined;
  /** Messages sent while it waits for a slot: its activation reads them first. */
  private pending: UserMessage[] = [];
  private cancelling = new AbortController();
  private recordedRunning = false;
  private settledNow: () => void = () => {};
  /**
   * The record as this activation would have stored it, when the store did not take the outcome and
   * no caller took it either: its parent is notified from memory instead of never hearing of it.
   */
  private unrecorded: TaskRecord | undefined;
  private settledWhen: Promise<void> = Promise.resolve();
  /** Where its activation runs, as last written into its record (remote and queued executors). */
  private ref: ExecutorRef | undefined;
  /** What it does now, written into its record for other processes to see. */
  private readonly activity: ActivityWriter;

  private constructor(
    identity: ChildIdentity,
    executor: ChildExecutor,
    records: ChildRecordKeeping,
    state: ChildState,
    background: boolean,
  ) {
    this.taskId = identity.taskId;
    this.definition = identity.definition;
    this.description = identity.description;
    this.parentSessionId = identity.parentSessionId;
    this.parentAgentId = identity.parentAgentId;
    this.agentPath = identity.agentPath;
    this.sessionId = identity.sessionId;
    this.model = identity.model;
    this.maxTurns = identity.maxTurns;
    this.executor = executor;
    this.records = records;
    this.current = state;
    this.mode = background ? "background" : "sync";
    this.activity = new ActivityWriter(identity.agentPath, (activity) =>
      this.write({ activity }, {}, "note what it does"),
    );
    if (isActive(state)) this.armSettled();
  }

  /**
   * A new child, asked to work at once (`queued`): its record is created PENDING — or RUNNING when a
   * slot is already held for it, so `start` need not write again before its first model call. A
   * caller waits for its outcome unless it runs in the background.
   */
  static async create(
    identity: ChildIdentity,
    executor: ChildExecutor,
    records: ChildRecordKeeping,
    options: { background: boolean; running: boolean },
  ): Promise<Child> {
    // Queued until `start`, also when its record says RUNNING already: the state follows the run.
    const state: ChildState = { status: "queued", attached: !options.background };
    const child = new Child(identity, executor, records, state, options.background);
    await records.store.create(child.newRecord(options.running));
    child.recordedRunning = options.running;
    return child;
  }

  /** A child known from its record (it ran in an earlier process): idle until it is continued. */
  static restored(
    identity: ChildIdentity,
    executor: ChildExecutor,
    records: ChildRecordKeeping,
    background: boolean,
  ): Child {
    return new Child(identity, executor, records, { status: "idle" }, background);
  }

  get state(): ChildState {
    return this.current;
  }

  /** From the moment it is asked to work until its record holds the outcome. */
  get active(): boolean {
    return isActive(this.current);
  }

  get background(): boolean {
    return this.mode === "background";
  }

  /** Aborts when it is cancelled (its activation's signal derives from it). */
  get cancelSignal(): AbortSignal {
    return this.cancelling.signal;
  }

  /** Resolves once it is no longer active (at once when it is not). */
  settled(): Promise<void> {
    return this.settledWhen;
  }

  /** Gives it work again: back to `queued`, its record PENDING again. `background` sets its mode. */
  async continue(background: boolean): Promise<void> {
    this.apply({ type: "continue", attached: !background });
    this.mode = background ? "background" : "sync";
    this.progress = { startedAt: Date.now(), turns: 0, lastTool: undefined, toolsInFlight: 0 };
    this.cancelling = new AbortController();
    this.recordedRunning = false;
    this.unrecorded = undefined;
    this.armSettled();
    await this.write({ status: "PENDING", owner: this.records.owner, background }, { resume: true });
  }

  /** It got a running slot; its record says RUNNING (unless it was created so). */
  async start(): Promise<void> {
    this.apply({ type: "start" });
    if (this.recordedRunning) return;
    this.recordedRunning = true;
    await this.write({ status: "RUNNING", owner: this.records.owner });
  }

  /** Its executor runs it: hands over what was sent meanwhile. */
  attach(run: (messages: UserMessage[]) => Activation): Activation {
    if (this.current.status !== "running")
      throw new IllegalChildTransitionError(this.taskId, this.current.status, "start");
    const messages = this.pending.splice(0);
    this.activation = run(messages);
    return this.activation;
  }

  /**
   * A message for its next turn. False when it reads no more in this activation (it is ending): wait
   * for `settled()` and continue it with the message instead.
   */
  send(message: UserMessage): boolean {
    if (nextState(this.current, { type: "send" }) === undefined) return false;
    if (this.activation === undefined) {
      this.pending.push(message);
      return true;
    }
    return this.activation.send(message);
  }

  /** Stops its current step so it turns to the messages sent at once. */
  interrupt(): void {
    this.apply({ type: "interrupt" });
    this.activation?.interrupt();
  }

  /** Stops it, and through its signal its tools and its own children; it ends `aborted`. */
  cancel(reason: string): void {
    this.apply({ type: "cancel" });
    if (!this.cancelling.signal.aborted) this.cancelling.abort(reason);
  }

  /**
   * The waiting caller gives up: its outcome will be a notification, and continuations of it run in
   * the background. False when the outcome is already decided, so the caller takes it itself.
   */
  async detach(): Promise<boolean> {
    if (nextState(this.current, { type: "detach" }) === undefined) return false;
    this.apply({ type: "detach" });
    this.mode = "background";
    await this.write({ background: true }, {}, "mark it promoted");
    return true;
  }

  /** Its activation ended: from now on it reads no messages, and who learns the outcome is decided. */
  end(outcome: Outcome): void {
    this.apply({ type: "end", outcome });
    this.activity.stop();
    this.activation = undefined;
    this.pending = [];
  }

  /**
   * Records the outcome (status, reason, result, usage; delivered when a caller took it) and settles.
   * A store that refuses the write is reported; the child settles all the same, and an outcome no
   * caller took is kept for its parent's notifications (`takeUnrecorded`).
   */
  async record(report: ChildRunReport): Promise<void> {
    const state = this.current;
    if (state.status !== "finishing")
      throw new IllegalChildTransitionError(this.taskId, state.status, "recorded");
    const recorded = await this.writeOutcome(report, state.delivered);
    if (!recorded && !state.delivered) this.unrecorded = this.unrecordedTask(report);
    this.apply({ type: "recorded" });
    this.settledNow();
  }

  /** The outcome the store did not take (see `record`), handed out once. */
  takeUnrecorded(): TaskRecord | undefined {
    if (this.active) return undefined;
    const taken = this.unrecorded;
    this.unrecorded = undefined;
    return taken;
  }

  /** Where its activation runs now: written into its record so another process can follow it. */
  async noteRef(ref: ExecutorRef): Promise<void> {
    if (JSON.stringify(ref) === JSON.stringify(this.ref)) return;
    this.ref = ref;
    await this.write({ ref }, {}, "note where it runs");
  }

  /** Its tree is done with it: the executor lets go of what it holds (see `ChildExecutor.close`). */
  close(): void {
    this.executor.close?.();
  }

  /** Follows its own events: turns, the last tool, tools in flight, and what its record says it does. */
  observe(event: AgentEvent): void {
    this.activity.observe(event);
    if (event.type === "turn_start") this.progress.turns++;
    else if (event.type === "tool_start") {
      this.progress.lastTool = event.name;
      this.progress.toolsInFlight++;
    } else if (event.type === "tool_end")
      this.progress.toolsInFlight = Math.max(0, this.progress.toolsInFlight - 1);
  }

  /** An outcome for an activation that never ran (cancelled while queued, or a failure around it). */
  endedEarly(end: { status: "aborted"; reason: string } | { status: "error"; error: string }): Outcome {
    return activationOutcome(end, { sessionId: this.sessionId, startedAt: this.progress.startedAt });
  }

  private apply(event: ChildEvent): void {
    const next = nextState(this.current, event);
    if (next === undefined)
      throw new IllegalChildTransitionError(this.taskId, this.current.status, event.type);
    this.current = next;
  }

  private armSettled(): void {
    this.settledWhen = new Promise((resolve) => {
      this.settledNow = resolve;
    });
  }

  /**
   * Writes the outcome into the record. A record another process judged orphaned (this process was
   * paused, or out of its sight) is reclaimed: the owner holds the real result. One another process
   * has taken over since (it continued the child) is left alone. False when the outcome is not stored.
   */
  private async writeOutcome(report: ChildRunReport, delivered: boolean): Promise<boolean> {
    const { store, owner, warn } = this.records;
    try {
      const after = await store.update(
        this.taskId,
        (current) => (current.owner === owner ? finishPatch(report, current, delivered, new Date()) : {}),
        { reclaim: true },
      );
      if (after.owner === owner) return true;
      warn(
        `task ${this.taskId}: its record now belongs to process ${identityLabel(after.owner)}, which continued it; this run's outcome is not recorded there.`,
      );
    } catch (error) {
      warn(`task ${this.taskId}: could not record its outcome: ${errorMessage(error)}`);
    }
    return false;
  }

  /** The finished record of an activation whose outcome the store did not take. */
  private unrecordedTask(report: ChildRunReport): TaskRecord {
    const now = new Date();
    const base: TaskRecord = {
      ...this.newRecord(false),
      status: "RUNNING",
      cancelRequested: false,
      createdAt: new Date(this.progress.startedAt).toISOString(),
      updatedAt: now.toISOString(),
    };
    return { ...base, ...finishPatch(report, base, false, now) };
  }

  private async write(
    patch: TaskUpdate,
    options: { resume?: boolean } = {},
    what = "update its record",
  ): Promise<void> {
    try {
      await this.records.store.update(this.taskId, patch, options);
    } catch (error) {
      this.records.warn(`task ${this.taskId}: could not ${what}: ${errorMessage(error)}`);
    }
  }

  private newRecord(running: boolean): NewTaskRecord {
    return {
      ...(running ? { status: "RUNNING" as const } : {}),
      taskId: this.taskId,
      agentType: this.definition.name,
      parentAgentId: this.parentAgentId,
      parentSessionId: this.parentSessionId,
      childSessionId: this.sessionId,
      description: this.description,
      owner: this.records.owner,
      background: this.background,
      model: this.model,
      agentPath: [...this.agentPath],
      usage: emptyUsage(),
    };
  }
}
