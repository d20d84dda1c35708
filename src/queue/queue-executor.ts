import { randomBytes } from "node:crypto";
import { Job } from "bullmq";
import { DEFAULT_MAX_TURNS } from "../agent/config.ts";
import { RunLimitExceeded } from "../agent/run-limits.ts";
import type { Outcome } from "../contracts/outcome.ts";
import { emptyUsage, type UserMessage, userText } from "../model/messages.ts";
import type {
  Activation,
  ActivationInput,
  ActivationRef,
  ActivationResult,
  ChildExecutor,
  FollowInput,
} from "../subagents/executor.ts";
import type { LocalChild } from "../subagents/local-child.ts";
import type { FleetClient } from "./fleet-client.ts";
import { type JobKeys, jobKeys } from "./fleet-keys.ts";
import { JOB_VERSION, type JobData, type JobResult, jobResultSchema, problemOf } from "./job-data.ts";
import { jobWorkspace } from "./job-workspace.ts";
import { type CancelReason, type MailboxEntry, pushEntry } from "./mailbox.ts";
import { parseStreamMessage } from "./stream-message.ts";

/** How long after its job ended the parent waits for the last of a child's events (they travel apart). */
const LAST_EVENTS_MS = 1_000;

/**
 * Runs a child built here as BullMQ jobs, one per activation, on whichever worker takes it. The child's
 * conversation stays here (its session): each job carries it, and its result brings back what the
 * activation added. Messages, interruptions and a cancel go through the job's mailbox; the child's
 * events come back on its channel as they happen. An activation can be followed from its ref by any
 * process that reaches the same Redis.
 */
export function queueExecutor(local: LocalChild, client: FleetClient): ChildExecutor {
  return {
    kind: "queue",
    start: (input) => new QueueActivation(local, client, input),
    follow: (ref, input) => followJob(local, client, ref, input),
    close: () => local.session.close(),
  };
}

class QueueActivation implements Activation {
  readonly done: Promise<ActivationResult>;
  readonly ref: ActivationRef;
  private jobId: string;
  private takesMessages = true;
  /** Sends the worker had closed its mailbox to: they continue the child in a new job. */
  private late: UserMessage[] = [];
  private sending: Promise<unknown> = Promise.resolve();
  private readonly local: LocalChild;
  private readonly client: FleetClient;

  constructor(local: LocalChild, client: FleetClient, input: ActivationInput) {
    this.local = local;
    this.client = client;
    this.jobId = newJobId(local.session.id);
    this.ref = { kind: "queue", queue: client.queueName, jobId: this.jobId };
    this.done = this.run(input).finally(() => {
      this.takesMessages = false;
    });
  }

  send(message: UserMessage): boolean {
    if (!this.takesMessages) return false;
    const jobId = this.jobId;
    this.push(jobId, { type: "message", message }, () => this.late.push(message));
    return true;
  }

  interrupt(): void {
    if (this.takesMessages) this.push(this.jobId, { type: "interrupt" });
  }

  /** Sends in order; `refused` runs when the job's mailbox was closed (it has ended). */
  private push(jobId: string, entry: MailboxEntry, refused?: () => void): void {
    const keys = this.keys(jobId);
    this.sending = this.sending.then(async () => {
      const pushed = await pushEntry(this.client.commands, keys, entry).catch(() => false);
      if (!pushed) refused?.();
    });
  }

  private keys(jobId: string): JobKeys {
    return jobKeys(this.client.queueName, jobId, this.client.prefix);
  }

  private async run(input: ActivationInput): Promise<ActivationResult> {
    const { session } = this.local;
    const started = Date.now();
    try {
      if (input.prompt !== undefined) await session.append(userText(input.prompt));
      const workspace = await jobWorkspace(this.local.workspace, {
        taskId: session.id,
        remote: this.client.remote,
      });
      let messages = [...input.messages];
      while (true) {
        const result = await runJob(
          this.client,
          this.jobId,
          jobData(this.local, messages, workspace),
          input,
          (reason) => this.push(this.jobId, { type: "cancel", reason }),
        );
        for (const message of result.messages) await session.append(message);
        await this.sending;
        const unread = [...result.unread, ...this.late.splice(0)];
        // As in this process: messages that arrived as it ended continue it, unless it was stopped.
        if (unread.length === 0 || result.outcome.status !== "completed" || input.signal.aborted)
          return toActivationResult(result);
        messages = unread;
        this.jobId = newJobId(session.id);
      }
    } catch (error) {
      return { outcome: errorOutcome(messageOf(error), session.id, started) };
    }
  }
}

/** A job id: the child's id, then a random part (each activation is a job). */
function newJobId(childId: string): string {
  return `${childId}.${randomBytes(4).toString("hex")}`;
}

function jobData(
  local: LocalChild,
  messages: readonly UserMessage[],
  workspace: JobData["workspace"],
): JobData {
  const { config, definition, session } = local;
  return {
    v: JOB_VERSION,
    taskId: session.id,
    sessionId: session.id,
    parentSessionId: session.parentSessionId ?? "",
    agentPath: [...(config.agentPath ?? [definition.name])],
    depth: config.depth ?? 1,
    agent: {
      name: definition.name,
      description: definition.description,
      prompt: definition.prompt,
      ...(definition.temperature === undefined ? {} : { temperature: definition.temperature }),
      ...(definition.allowedHosts === undefined ? {} : { allowedHosts: [...definition.allowedHosts] }),
    },
    model: config.model.id,
    tools: config.tools.map((tool) => tool.name),
    rules: local.rules.map((rule) => ({
      permission: rule.permission,
      pattern: rule.pattern,
      action: rule.action,
    })),
    mode: local.mode,
    readOnly: config.commands?.sandbox?.ceiling === "read-only",
    limits: {
      maxTurns: config.maxTurns ?? DEFAULT_MAX_TURNS,
      ...(config.limits?.stallTimeoutMs === undefined
        ? {}
        : { stallTimeoutMs: config.limits.stallTimeoutMs }),
      ...(config.limits?.maxTokens === undefined ? {} : { maxTokens: config.limits.maxTokens }),
      ...(config.limits?.maxDurationMs === undefined ? {} : { maxDurationMs: config.limits.maxDurationMs }),
    },
    ...(config.toolOutputLimit === undefined ? {} : { toolOutputLimit: config.toolOutputLimit }),
    history: [...session.messages],
    messages: [...messages],
    workspace,
  };
}

/**
 * Adds one job and follows it to its result: its events reach `emit` in order, a cancel reaches its
 * worker through `cancel`, and its lease is held while it runs. A job that failed (its worker was lost
 * more often than allowed, its data was refused) or Redis lost for too long ends it with an error.
 */
async function runJob(
  client: FleetClient,
  jobId: string,
  data: JobData,
  input: FollowInput,
  cancel: (reason: CancelReason) => void,
): Promise<JobResult> {
  return withFollowing(client, jobId, input, cancel, async () => {
    await client.queue.add("child", data, {
      jobId,
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 24 * 3600 },
    });
  });
}

/** Follows an activation another executor (or process) started, to the same result. */
function followJob(
  local: LocalChild,
  client: FleetClient,
  ref: ActivationRef,
  input: FollowInput,
): Activation {
  const started = Date.now();
  const done = (async (): Promise<ActivationResult> => {
    if (ref.kind !== "queue" || ref.queue !== client.queueName)
      return {
        outcome: errorOutcome(
          `its job is on ${ref.kind === "queue" ? `queue "${ref.queue}"` : `an ${ref.kind} agent`}, not on queue "${client.queueName}" of ${client.target.label}`,
          local.session.id,
          started,
        ),
      };
    const keys = jobKeys(client.queueName, ref.jobId, client.prefix);
    try {
      const cancel = (reason: CancelReason) => {
        void pushEntry(client.commands, keys, { type: "cancel", reason }).catch(() => {});
      };
      const result = await withFollowing(client, ref.jobId, input, cancel, async () => {});
      for (const message of result.messages) await local.session.append(message);
      return toActivationResult(result);
    } catch (error) {
      return { outcome: errorOutcome(messageOf(error), local.session.id, started) };
    }
  })();
  let open = true;
  void done.finally(() => {
    open = false;
  });
  const keys = ref.kind === "queue" ? jobKeys(ref.queue, ref.jobId, client.prefix) : undefined;
  return {
    done,
    ref,
    send: (message) => {
      if (!open || keys === undefined) return false;
      void pushEntry(client.commands, keys, { type: "message", message }).catch(() => {});
      return true;
    },
    interrupt: () => {
      if (open && keys !== undefined)
        void pushEntry(client.commands, keys, { type: "interrupt" }).catch(() => {});
    },
  };
}

async function withFollowing(
  client: FleetClient,
  jobId: string,
  input: FollowInput,
  cancel: (reason: CancelReason) => void,
  begin: () => Promise<void>,
): Promise<JobResult> {
  const keys = jobKeys(client.queueName, jobId, client.prefix);
  let ended!: () => void;
  const lastEvent = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const unsubscribe = await client.subscribe(keys.events, (text) => {
    const message = parseStreamMessage(text);
    if (message?.type === "event") input.emit(message.event);
    else if (message?.type === "end") ended();
  });
  const releaseLease = await client.holdLease(keys.lease);
  const onAbort = () => cancel(cancelReason(input.signal.reason));
  let stopLost: (() => void) | undefined;
  try {
    await client.ready();
    await begin();
    if (input.signal.aborted) onAbort();
    else input.signal.addEventListener("abort", onAbort, { once: true });
    const job = await findJob(client, jobId);
    if (job === undefined) throw new Error(`its job ${jobId} is not on queue "${client.queueName}"`);
    const lost = new Promise<never>((_, reject) => {
      stopLost = client.onLost((error) => reject(new Error(error)));
    });
    let value: unknown;
    try {
      value = await Promise.race([job.waitUntilFinished(client.events), lost]);
    } catch (error) {
      const reason = messageOf(error);
      // BullMQ's words when a job's worker was lost on each of its allowed starts.
      if (reason.includes("stalled more than allowable limit"))
        throw new Error(
          `its worker was lost (killed, or cut off from Redis) on every start it was allowed (job ${jobId}; BullMQ: ${reason})`,
        );
      throw new Error(`its job ${jobId} failed: ${reason}`);
    }
    const parsed = jobResultSchema.safeParse(value);
    if (!parsed.success)
      throw new Error(`its worker returned a result this agentry cannot read (${problemOf(parsed.error)})`);
    await Promise.race([lastEvent, new Promise((resolve) => setTimeout(resolve, LAST_EVENTS_MS).unref())]);
    return parsed.data as JobResult;
  } finally {
    stopLost?.();
    input.signal.removeEventListener("abort", onAbort);
    releaseLease();
    unsubscribe();
  }
}

/** How long a follower waits for a job its starter has not added yet. */
const ADDED_WITHIN_MS = 10_000;

/**
 * The job, or undefined when it is not on the queue: a follower may look before the process that
 * started the activation added it, so it waits for BullMQ's `added` event (a while at most).
 */
async function findJob(client: FleetClient, jobId: string): Promise<Job | undefined> {
  const found = await Job.fromId(client.queue, jobId);
  if (found !== undefined) return found;
  return new Promise((resolve) => {
    let settled = false;
    const look = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.events.off("added", onAdded);
      Job.fromId(client.queue, jobId).then(resolve, () => resolve(undefined));
    };
    const onAdded = (args: { jobId: string }) => {
      if (args.jobId === jobId) look();
    };
    const timer = setTimeout(look, ADDED_WITHIN_MS);
    client.events.on("added", onAdded);
    // Added between the first look and the listener: look again now.
    void Job.fromId(client.queue, jobId).then(
      (job) => job !== undefined && look(),
      () => {},
    );
  });
}

/** A cancel as the worker's loop must see it: a run limit stays a limit (a budget ends `budget_exceeded`). */
function cancelReason(reason: unknown): CancelReason {
  if (reason instanceof RunLimitExceeded)
    return { kind: "limit", limit: reason.limit, message: reason.message };
  if (typeof reason === "string" && reason !== "") return { kind: "text", text: reason };
  if (reason instanceof Error && reason.name !== "AbortError") return { kind: "text", text: reason.message };
  return { kind: "text", text: "aborted" };
}

function toActivationResult(result: JobResult): ActivationResult {
  return {
    outcome: result.outcome as Outcome,
    ...(result.branch === undefined ? {} : { branch: result.branch }),
    ...(result.workspaceNote === undefined ? {} : { workspaceNote: result.workspaceNote }),
  };
}

function errorOutcome(error: string, sessionId: string, started: number): Outcome {
  return {
    status: "error",
    error: `queued child: ${error}`,
    text: "",
    turns: 0,
    usage: emptyUsage(),
    durationMs: Date.now() - started,
    sessionId,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
