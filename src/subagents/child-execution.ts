import { abortReason } from "../agent/abort.ts";
import { runAgentLoop } from "../agent/loop.ts";
import { identityLabel } from "../agent/process-identity.ts";
import type { AgentEvent } from "../contracts/events.ts";
import type { Outcome } from "../contracts/outcome.ts";
import { addUsage, emptyUsage, userText } from "../model/messages.ts";
import type { TaskRecord } from "../tasks/task-record.ts";
import type { TaskUpdate } from "../tasks/task-store.ts";
import { openChildMcp } from "./child-mcp.ts";
import type { WorkspaceReport } from "./child-workspace.ts";
import type { ChildRecord, SubagentRuntime } from "./subagent-runtime.ts";
import { finishPatch, newChildTask } from "./task-records.ts";
import type { ChildRunReport } from "./task-result.ts";

export interface ExecutionRequest {
  /** The child's next user message; absent when it goes on with messages already in its mailbox. */
  prompt?: string;
  description: string;
  /** The caller's run: when it stops, the child stops. */
  parentSignal: AbortSignal;
  /** The caller's event sink, so the child's events bubble up the tree. */
  emit: (event: AgentEvent) => void;
  /** Tells the caller the child is queued for a slot (a sync caller shows it). */
  progress: (update: string) => void;
  /** A caller waits for the result and receives it itself, instead of a notification. */
  attached: boolean;
  /** The child ran before: its record is reopened. */
  continuation: boolean;
  /** A running slot taken already, with the record created RUNNING: no wait, no RUNNING write. */
  slot?: () => void;
}

/**
 * One activation of a child, from a `task` (or `task_send`) call to its final outcome: waits for a
 * running slot, runs the loop — again with queued `task_send` messages when they arrive as it ends or
 * when it is interrupted — and writes each step into the child's TaskRecord. Never rejects.
 */
export class ChildExecution {
  readonly startedAt = Date.now();
  /** Turns the child took in this activation. */
  turns = 0;
  /** The last tool the child called, and whether a tool call is in flight. */
  lastTool: string | undefined;
  toolsInFlight = 0;
  /** Resolves with the final report once the record holds it. */
  readonly done: Promise<ChildRunReport>;
  /**
   * The record as this run would have stored it, when the store refused the write (and no caller
   * took the result): its parent is notified from memory instead of never hearing of it.
   */
  unrecorded: TaskRecord | undefined;
  private attached: boolean;
  private finalized = false;
  private acceptingMessages = true;
  private interrupted = false;
  private readonly cancelController = new AbortController();
  private runController: AbortController | undefined;

  constructor(runtime: SubagentRuntime, record: ChildRecord, request: ExecutionRequest) {
    this.attached = request.attached;
    record.running = true;
    record.execution = this;
    runtime.control.track(record.taskId);
    this.done = this.run(runtime, record, request);
  }

  /** Whether a message queued now is still read by this activation. */
  get takesMessages(): boolean {
    return this.acceptingMessages;
  }

  /** Stops the child (and, through its signal, its tools and its own children). */
  cancel(reason: string): void {
    if (!this.cancelController.signal.aborted) this.cancelController.abort(reason);
  }

  /** Stops the child's current turn so it goes on at once with the messages in its mailbox. */
  interrupt(): void {
    if (!this.runController || this.runController.signal.aborted) return;
    this.interrupted = true;
    this.runController.abort("interrupted by a message from its parent (task_send)");
  }

  /**
   * The waiting caller gives up (its call timed out): the result will be delivered as a notification.
   * False when the result is already final, so the caller must take it from `done` itself.
   */
  detach(): boolean {
    if (this.finalized) return false;
    this.attached = false;
    return true;
  }

  private async run(
    runtime: SubagentRuntime,
    record: ChildRecord,
    request: ExecutionRequest,
  ): Promise<ChildRunReport> {
    const signal = AbortSignal.any([this.cancelController.signal, request.parentSignal]);
    const label = record.config.agentPath?.join("/") ?? record.taskId;
    let outcome: Outcome;
    let release: (() => void) | undefined;
    try {
      if (request.continuation) await this.write(runtime, record, reopenPatch(runtime, record), true);
      release = request.slot ?? (await this.acquire(runtime, signal, label, request.progress));
      if (!release) {
        outcome = this.endedEarly(record, { status: "aborted", reason: abortReason(signal) });
      } else {
        if (!request.slot)
          await this.write(runtime, record, { status: "RUNNING", owner: runtime.owner }, false);
        await record.workspace.reopen();
        if (request.prompt !== undefined) await record.session.append(userText(request.prompt));
        outcome = await this.withOwnMcp(runtime, record, signal, () => this.loop(record, request, signal));
      }
    } catch (error) {
      outcome = this.endedEarly(record, {
        status: "error",
        error: `internal error: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    this.acceptingMessages = false;
    const workspace = await finishWorkspace(record);
    const report: ChildRunReport = {
      taskId: record.taskId,
      agentType: record.definition.name,
      model: record.config.model.id,
      outcome,
      maxTurns: record.config.maxTurns ?? runtime.limits.maxTurns,
      ...(workspace.branch === undefined ? {} : { branch: workspace.branch }),
      ...(workspace.note === undefined ? {} : { workspaceNote: workspace.note }),
    };
    // Decided in one synchronous step with `detach`, so a result is either returned or notified.
    this.finalized = true;
    const delivered = this.attached;
    // The slot is free as soon as the child stopped working; a queued sibling need not wait for the write.
    release?.();
    const recorded = await this.record(runtime, record, report, delivered);
    if (!recorded && !delivered) this.unrecorded = unrecordedTask(runtime, record, report, this.startedAt);
    record.running = false;
    runtime.control.untrack(record.taskId);
    runtime.settled.fire();
    return report;
  }

  /**
   * Writes the outcome into the record. A record another process judged orphaned (this process was
   * paused, or out of its sight) is reclaimed: the owner holds the real result. One another process
   * has taken over since (it continued the child) is left alone. False when the outcome is not stored.
   */
  private async record(
    runtime: SubagentRuntime,
    record: ChildRecord,
    report: ChildRunReport,
    delivered: boolean,
  ): Promise<boolean> {
    try {
      const after = await runtime.store.update(
        record.taskId,
        (current) =>
          current.owner === runtime.owner ? finishPatch(report, current, delivered, new Date()) : {},
        { reclaim: true },
      );
      if (after.owner === runtime.owner) return true;
      runtime.warn(
        `task ${record.taskId}: its record now belongs to process ${identityLabel(after.owner)}, which continued it; this run's outcome is not recorded there.`,
      );
    } catch (error) {
      runtime.warn(`task ${record.taskId}: could not record its outcome: ${messageOf(error)}`);
    }
    return false;
  }

  /** Runs `work` with the tools of the MCP servers the child's definition declares inline, then stops them. */
  private async withOwnMcp(
    runtime: SubagentRuntime,
    record: ChildRecord,
    signal: AbortSignal,
    work: () => Promise<Outcome>,
  ): Promise<Outcome> {
    const mcp = await openChildMcp(record, signal, runtime.warn);
    if (!mcp) return work();
    const config = record.config;
    const own = new Set(mcp.tools.map((tool) => tool.name));
    record.config = {
      ...config,
      tools: [...config.tools.filter((tool) => !own.has(tool.name)), ...mcp.tools],
    };
    try {
      return await work();
    } finally {
      record.config = config;
      await mcp.close();
    }
  }

  private async acquire(
    runtime: SubagentRuntime,
    signal: AbortSignal,
    label: string,
    progress: (update: string) => void,
  ): Promise<(() => void) | undefined> {
    const queued = runtime.running >= runtime.limits.maxConcurrent;
    if (queued) {
      progress(
        `queued ${label}: ${runtime.running} subagents running (limit ${runtime.limits.maxConcurrent}), ${runtime.queued} already waiting`,
      );
    }
    try {
      const release = await runtime.acquireSlot(signal);
      if (queued) progress(`started ${label}`);
      return release;
    } catch {
      return undefined;
    }
  }

  /** Runs the loop until an outcome no queued message (or interruption) continues. */
  private async loop(record: ChildRecord, request: ExecutionRequest, signal: AbortSignal): Promise<Outcome> {
    const path = record.config.agentPath ?? [];
    const emit = (event: AgentEvent) => {
      if (samePath(event.agentPath, path)) this.observe(event);
      // The loop's own agent_start is the one that says the child really started; it gains the description.
      request.emit(
        event.type === "agent_start" && event.sessionId === record.session.id
          ? { ...event, description: request.description }
          : event,
      );
    };
    let usage = emptyUsage();
    let turns = 0;
    while (true) {
      const controller = new AbortController();
      this.runController = controller;
      const stop = () => controller.abort(signal.reason);
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
      let outcome: Outcome;
      try {
        outcome = await runAgentLoop(record.config, record.session, emit, controller.signal);
      } finally {
        signal.removeEventListener("abort", stop);
        this.runController = undefined;
      }
      usage = addUsage(usage, outcome.usage);
      turns += outcome.turns;
      const interrupted = this.interrupted && outcome.status === "aborted";
      this.interrupted = false;
      const more = record.mailbox.length > 0 && (outcome.status === "completed" || interrupted);
      if (signal.aborted || !(more || interrupted)) {
        this.acceptingMessages = false;
        return { ...outcome, usage, turns, durationMs: Date.now() - this.startedAt };
      }
      const messages = record.mailbox.splice(0);
      // An interruption whose message already reached the child still needs a user turn to answer.
      if (messages.length === 0 && record.session.messages.at(-1)?.role === "assistant")
        messages.push(userText("(Your parent interrupted you. Continue.)"));
      for (const message of messages) {
        await record.session.append(message);
        emit({ type: "user_message", agentPath: path, message });
      }
    }
  }

  private observe(event: AgentEvent): void {
    if (event.type === "turn_start") this.turns++;
    else if (event.type === "tool_start") {
      this.lastTool = event.name;
      this.toolsInFlight++;
    } else if (event.type === "tool_end") this.toolsInFlight = Math.max(0, this.toolsInFlight - 1);
  }

  private endedEarly(
    record: ChildRecord,
    end: { status: "aborted"; reason: string } | { status: "error"; error: string },
  ): Outcome {
    return {
      ...end,
      text: "",
      turns: 0,
      usage: emptyUsage(),
      durationMs: Date.now() - this.startedAt,
      sessionId: record.session.id,
    };
  }

  private async write(
    runtime: SubagentRuntime,
    record: ChildRecord,
    patch: TaskUpdate,
    resume: boolean,
  ): Promise<void> {
    try {
      await runtime.store.update(record.taskId, patch, { resume });
    } catch (error) {
      runtime.warn(`task ${record.taskId}: could not update its record: ${messageOf(error)}`);
    }
  }
}

/** The finished record of a run whose outcome the store did not take (see `ChildExecution.unrecorded`). */
function unrecordedTask(
  runtime: SubagentRuntime,
  record: ChildRecord,
  report: ChildRunReport,
  startedAt: number,
): TaskRecord {
  const now = new Date();
  const base: TaskRecord = {
    ...newChildTask(record, runtime.owner),
    status: "RUNNING",
    cancelRequested: false,
    createdAt: new Date(startedAt).toISOString(),
    updatedAt: now.toISOString(),
  };
  return { ...base, ...finishPatch(report, base, false, now) };
}

function reopenPatch(runtime: SubagentRuntime, record: ChildRecord) {
  return { status: "PENDING", owner: runtime.owner, background: record.background } as const;
}

async function finishWorkspace(record: ChildRecord): Promise<WorkspaceReport> {
  try {
    return await record.workspace.finish();
  } catch (error) {
    return {
      note: `Its ${record.workspace.mode} workspace at ${record.workspace.path} could not be cleaned up: ${messageOf(error)}`,
    };
  }
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
