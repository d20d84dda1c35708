import { randomUUID } from "node:crypto";
import { type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
  STATE_HEADERS_KEY,
} from "@a2a-js/sdk/server";
import type { AgentEvent as AgentryEvent } from "../../contracts/events.ts";
import type { Outcome } from "../../contracts/outcome.ts";
import type { TraceRun } from "../../contracts/run-tracer.ts";
import type { UserMessage } from "../../model/messages.ts";
import type { Semaphore } from "../../subagents/placement.ts";
import { errorMessage } from "../../text/error-message.ts";
import { formatDuration } from "../../text/format-duration.ts";
import { isEmptyMessage, textPart, userMessageOf } from "../a2a-parts.ts";
import { type ForwardedEvent, forwardable, progressMetadata } from "../progress-metadata.ts";
import type { ServedAgentInfo, ServedAgents } from "./served-agents.ts";
import { ServedConversations } from "./served-conversations.ts";
import type { ServedRecords } from "./served-records.ts";

/** How long forwarded events gather before one status update carries them. */
const BATCH_MS = 50;
/** A task that works quietly (a long model call) still says WORKING this often: clients watch for stalls. */
const HEARTBEAT_MS = 5_000;

export interface ServedAgentOptions {
  agent: ServedAgentInfo;
  agents: ServedAgents;
  /** The agent's JSON-RPC URL, written into its tasks' records. */
  url: string;
  records?: ServedRecords;
  /** Shared by every served agent: at most this many tasks run at once; the others wait, WORKING. */
  slots?: Semaphore;
  /** Idle conversations kept open (default `DEFAULT_OPEN_CONVERSATIONS`); the others wait on disk. */
  openConversations?: number;
  /** One line per task: started, and how it ended. */
  log(line: string): void;
  /** Traces each task under the caller's `traceparent` (tracing on); none: no traces. */
  trace?: TraceRun;
}

/**
 * One served agent as the SDK's `AgentExecutor`: each A2A context is a conversation (a child with its
 * history, opened on its first message, closed when idle too long and taken up again from its
 * transcript), each message a task that runs one activation of it. A task is recorded as soon as it
 * arrives. The agent's progress goes out as WORKING updates carrying agentry metadata; its answer as
 * an artifact and COMPLETED; a failure, a limit or a refusal as FAILED with the reason; CancelTask
 * stops it. One task at a time per context: a message to a busy context is REJECTED with the reason.
 */
export class ServedAgentExecutor implements AgentExecutor {
  private readonly options: ServedAgentOptions;
  private readonly conversations: ServedConversations;
  private readonly busy = new Map<string, string>();
  private readonly running = new Map<string, AbortController>();
  /** The tasks in progress, so `close` waits for their records to be finished. */
  private readonly executing = new Set<Promise<void>>();

  constructor(options: ServedAgentOptions) {
    this.options = options;
    this.conversations = new ServedConversations({
      agent: options.agent.name,
      agents: options.agents,
      ...(options.records === undefined ? {} : { records: options.records }),
      ...(options.openConversations === undefined ? {} : { keep: options.openConversations }),
    });
  }

  cancelTask = async (taskId: string): Promise<void> => {
    this.running.get(taskId)?.abort("cancelled by the A2A client (CancelTask)");
  };

  execute = (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const run = this.run(context, bus);
    this.executing.add(run);
    return run.finally(() => this.executing.delete(run));
  };

  private async run(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = context;
    const { agent, log } = this.options;
    const task: Task = context.task ?? {
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
      artifacts: [],
      history: [userMessage],
      metadata: undefined,
    };
    bus.publish(AgentEvent.task(task));
    const update = (state: TaskState, text?: string, metadata?: Record<string, unknown>) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            message: text === undefined ? undefined : agentMessage(text, contextId, taskId),
            timestamp: now(),
          },
          metadata,
        }),
      );
    const other = this.busy.get(contextId);
    const message = userMessageOf(userMessage);
    if (other !== undefined || isEmptyMessage(message)) {
      update(
        TaskState.TASK_STATE_REJECTED,
        other !== undefined
          ? `context ${contextId} is busy with task ${other}: wait for it to end, or cancel it, then send again`
          : "the message has no text to act on",
      );
      bus.finished();
      return;
    }
    this.busy.set(contextId, taskId);
    const abort = new AbortController();
    this.running.set(taskId, abort);
    const started = Date.now();
    log(`task ${taskId} (${agent.name}, context ${contextId}): started`);
    let outcome: Outcome | undefined;
    let failure: string | undefined;
    const records = this.options.records;
    let recorded = false;
    let conversing = false;
    // WORKING at once and every few seconds, also while waiting for a slot: clients watch for stalls.
    update(TaskState.TASK_STATE_WORKING);
    const heartbeat = setInterval(() => {
      update(TaskState.TASK_STATE_WORKING);
      if (recorded) records?.beat(taskId).catch(() => {});
    }, HEARTBEAT_MS);
    let release: (() => void) | undefined;
    try {
      // Recorded before it waits for a slot: a task cancelled or killed while waiting leaves a record.
      await records?.arrive({ taskId, contextId, url: this.options.url, agent: agent.name, message });
      recorded = records !== undefined;
      release = await this.options.slots?.acquire(abort.signal);
      conversing = true;
      const child = await this.conversations.acquire(contextId);
      await records?.start(taskId, child);
      const progress = new ProgressBatcher(child.agentPath, (events) =>
        update(TaskState.TASK_STATE_WORKING, undefined, progressMetadata({ events })),
      );
      const tracer = this.options.trace?.(callerTraceparent(context));
      try {
        const activation = child.executor.start({
          ...openingOf(message),
          signal: abort.signal,
          emit: (event) => {
            tracer?.event(event);
            progress.add(event);
          },
        });
        outcome = (await activation.done).outcome;
      } finally {
        tracer?.close();
        progress.flush();
      }
    } catch (error) {
      failure = abort.signal.aborted
        ? undefined
        : `agentry could not run agent ${agent.name}: ${errorMessage(error)}`;
    } finally {
      clearInterval(heartbeat);
      release?.();
      if (conversing) this.conversations.release(contextId);
      this.running.delete(taskId);
      this.busy.delete(contextId);
    }
    // Recorded before the client hears of the end, so `agentry tasks` never shows it running after.
    if (recorded)
      await records
        ?.finish(taskId, outcome, failure)
        .catch((error: unknown) => log(`task ${taskId}: could not record its end: ${String(error)}`));
    const end = endOf(outcome, failure);
    if (end.state === TaskState.TASK_STATE_COMPLETED && outcome !== undefined) {
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId: randomUUID(),
            name: "answer",
            description: "",
            parts: [textPart(outcome.text)],
            metadata: undefined,
            extensions: [],
          },
          append: false,
          lastChunk: true,
          metadata: undefined,
        }),
      );
    }
    const totals =
      outcome === undefined ? undefined : progressMetadata({ usage: outcome.usage, turns: outcome.turns });
    update(end.state, end.text, totals);
    log(`task ${taskId} (${agent.name}): ${end.label} after ${formatDuration(Date.now() - started)}`);
    bus.finished();
  }

  /** Stops every running task, waits until their records are finished, lets go of the conversations. */
  async close(): Promise<void> {
    for (const abort of this.running.values()) abort.abort("agentry serve is stopping");
    await Promise.allSettled(this.executing);
    await this.conversations.close();
  }
}

/** Gathers the served agent's events for a short while, so a burst goes out as one update. */
class ProgressBatcher {
  private readonly path: readonly string[];
  private readonly send: (events: ForwardedEvent[]) => void;
  private pending: ForwardedEvent[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(path: readonly string[], send: (events: ForwardedEvent[]) => void) {
    this.path = path;
    this.send = send;
  }

  add(event: AgentryEvent): void {
    const forwarded = forwardable(event, this.path);
    if (forwarded === undefined) return;
    this.pending.push(forwarded);
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    this.send(events);
  }
}

/**
 * A message as an activation's input: its first text is the prompt, each other part a message of its
 * own after it, as a local child gets a prompt and the messages sent before it started.
 */
function openingOf(message: UserMessage): { prompt: string; messages: UserMessage[] } {
  const first = message.content.findIndex((part) => part.type === "text");
  const head = message.content[first];
  const prompt = head?.type === "text" ? head.text : "";
  const rest = message.content.filter((_, index) => index !== first);
  return { prompt, messages: rest.map((part) => ({ role: "user", content: [part] })) };
}

/**
 * The caller's W3C trace context: the `traceparent` header (agentry's client sends it), else the
 * message's `traceparent` metadata, for clients that cannot set headers. Parsed by the tracer.
 */
function callerTraceparent(context: RequestContext): string | undefined {
  const headers = context.context.state.get(STATE_HEADERS_KEY) as Record<string, unknown> | undefined;
  const header = headers?.traceparent;
  if (typeof header === "string") return header;
  const metadata = context.userMessage.metadata as Record<string, unknown> | undefined;
  return typeof metadata?.traceparent === "string" ? metadata.traceparent : undefined;
}

function endOf(
  outcome: Outcome | undefined,
  failure: string | undefined,
): { state: TaskState; text?: string; label: string } {
  // No outcome and no failure: cancelled while it waited for a slot.
  if (outcome === undefined && failure === undefined)
    return { state: TaskState.TASK_STATE_CANCELED, text: "cancelled before it started", label: "cancelled" };
  if (outcome === undefined)
    return { state: TaskState.TASK_STATE_FAILED, text: failure ?? "", label: "failed" };
  switch (outcome.status) {
    case "completed":
      return { state: TaskState.TASK_STATE_COMPLETED, label: "completed" };
    case "aborted":
      return { state: TaskState.TASK_STATE_CANCELED, text: outcome.reason, label: "cancelled" };
    case "error":
      return { state: TaskState.TASK_STATE_FAILED, text: outcome.error, label: "failed" };
    case "max_turns":
      return {
        state: TaskState.TASK_STATE_FAILED,
        text: `it reached its turn limit (${outcome.turns} turns)`,
        label: "failed (turn limit)",
      };
    case "budget_exceeded":
      return { state: TaskState.TASK_STATE_FAILED, text: outcome.reason, label: "failed (budget)" };
  }
}

function agentMessage(text: string, contextId: string, taskId: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

const now = () => new Date().toISOString();
