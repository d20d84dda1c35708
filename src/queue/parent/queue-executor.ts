import { randomBytes } from "node:crypto";
import type { Session } from "../../agent/session/session.ts";
import type { Outcome } from "../../contracts/outcome.ts";
import { type UserMessage, userMessage } from "../../model/messages.ts";
import {
  type Activation,
  type ActivationInput,
  type ActivationRef,
  type ActivationResult,
  activationOutcome,
  type ChildExecutor,
  type ChildWorkspace,
  type FollowInput,
  type LoopChildSpec,
} from "../../subagents/placement.ts";
import { errorMessage } from "../../text/error-message.ts";
import { type JobKeys, jobKeys } from "../fleet-keys.ts";
import { JOB_VERSION, type JobData, type JobResult, type JobWorkspace } from "../job-data.ts";
import { type CancelReason, type MailboxEntry, pushEntry } from "../mailbox.ts";
import type { FleetClient } from "./fleet-client.ts";
import { type Following, followJob } from "./follow-job.ts";
import { jobWorkspace } from "./job-workspace.ts";

/** A child its parent placed on the queue: its spec, and the conversation and workspace kept here. */
export interface QueuedChild {
  spec: LoopChildSpec;
  session: Session;
  /** Where it works as its parent sees it (a worktree child's is its parent's workspace: the snapshot's source). */
  workspace: ChildWorkspace;
}

/**
 * Runs a child described here as BullMQ jobs, one per activation, on whichever worker takes it. The child's
 * conversation stays here (its session): each job carries it, and its result brings back what the
 * activation added. Messages, interruptions and a cancel go through the job's mailbox; the child's
 * events come back on its channel as they happen. An activation can be followed from its ref by any
 * process that reaches the same Redis.
 */
export function queueExecutor(local: QueuedChild, client: FleetClient): ChildExecutor {
  return {
    kind: "queue",
    start: (input) => new QueueActivation(local, client, input),
    follow: (ref, input) => followActivation(local, client, ref, input),
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
  private readonly local: QueuedChild;
  private readonly client: FleetClient;

  constructor(local: QueuedChild, client: FleetClient, input: ActivationInput) {
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
      const pushed = await pushEntry(
        this.client.commands,
        keys,
        this.client.seal("entry", jobId, entry),
      ).catch(() => false);
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
      if (input.prompt !== undefined) await session.append(userMessage(input.prompt, input.images));
      const workspace = await jobWorkspace(this.local.workspace, {
        taskId: session.id,
        remote: this.client.remote,
      });
      let messages = [...input.messages];
      while (true) {
        const jobId = this.jobId;
        const result = await addAndFollow(this.client, jobData(this.local, messages, workspace), {
          jobId,
          sessionId: session.id,
          input,
          cancel: (reason) => this.push(jobId, { type: "cancel", reason }),
        });
        for (const message of result.messages) await session.append(message);
        await this.sending;
        const unread = [...result.unread, ...this.late.splice(0)];
        // As in this process: messages that arrived as it ended continue it, unless it was stopped.
        if (unread.length === 0 || result.outcome.status !== "completed" || input.signal.aborted)
          return toActivationResult(result);
        messages = unread;
        this.jobId = newJobId(session.id);
        // The child's record follows it to its next job.
        input.onRef?.({ kind: "queue", queue: this.client.queueName, jobId: this.jobId });
      }
    } catch (error) {
      return { outcome: errorOutcome(errorMessage(error), session.id, started) };
    }
  }
}

/** A job id: the child's id, then a random part (each activation is a job). */
function newJobId(childId: string): string {
  return `${childId}.${randomBytes(4).toString("hex")}`;
}

function jobData(local: QueuedChild, messages: readonly UserMessage[], workspace: JobWorkspace): JobData {
  return {
    v: JOB_VERSION,
    spec: local.spec,
    history: [...local.session.messages],
    messages: [...messages],
    workspace,
  };
}

/** Adds one job, once its follower listens, and follows it to its result (`followJob`). */
function addAndFollow(
  client: FleetClient,
  data: JobData,
  following: Omit<Following, "begin">,
): Promise<JobResult> {
  return followJob(client, {
    ...following,
    begin: async () => {
      await client.queue.add("child", client.seal("job", following.jobId, data), {
        jobId: following.jobId,
        removeOnComplete: { age: 3600 },
        removeOnFail: { age: 24 * 3600 },
      });
    },
  });
}

/** Follows an activation another executor (or process) started, to the same result. */
function followActivation(
  local: QueuedChild,
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
        const entry = client.seal("entry", ref.jobId, { type: "cancel" as const, reason });
        void pushEntry(client.commands, keys, entry).catch(() => {});
      };
      const result = await followJob(client, {
        jobId: ref.jobId,
        sessionId: local.session.id,
        input,
        cancel,
        begin: async () => {},
      });
      for (const message of result.messages) await local.session.append(message);
      return toActivationResult(result);
    } catch (error) {
      return { outcome: errorOutcome(errorMessage(error), local.session.id, started) };
    }
  })();
  let open = true;
  void done.finally(() => {
    open = false;
  });
  const keys = ref.kind === "queue" ? jobKeys(ref.queue, ref.jobId, client.prefix) : undefined;
  const push = (entry: MailboxEntry) => {
    if (ref.kind !== "queue" || keys === undefined) return;
    void pushEntry(client.commands, keys, client.seal("entry", ref.jobId, entry)).catch(() => {});
  };
  return {
    done,
    ref,
    send: (message) => {
      if (!open || keys === undefined) return false;
      push({ type: "message", message });
      return true;
    },
    interrupt: () => {
      if (open) push({ type: "interrupt" });
    },
  };
}

function toActivationResult(result: JobResult): ActivationResult {
  return {
    outcome: result.outcome,
    ...(result.branch === undefined ? {} : { branch: result.branch }),
    ...(result.workspaceNote === undefined ? {} : { workspaceNote: result.workspaceNote }),
  };
}

function errorOutcome(error: string, sessionId: string, startedAt: number): Outcome {
  return activationOutcome({ status: "error", error: `queued child: ${error}` }, { sessionId, startedAt });
}
