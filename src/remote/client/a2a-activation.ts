import type { AgentEvent } from "../../contracts/events.ts";
import type { OutcomeEnd } from "../../contracts/outcome.ts";
import { addUsage, emptyUsage, type Usage, type UserMessage, userText } from "../../model/messages.ts";
import type {
  Activation,
  ActivationInput,
  ActivationResult,
  FollowInput,
  RemoteChildSpec,
} from "../../subagents/placement.ts";
import {
  activationOutcome,
  GO_ON_AFTER_INTERRUPT,
  InterruptibleStep,
  Mailbox,
} from "../../subagents/placement.ts";
import type { ExecutorRef } from "../../tasks/task-record.ts";
import { a2aMessage } from "../a2a-parts.ts";
import { relocate } from "../progress-metadata.ts";
import { describeRemoteFailure } from "../remote-errors.ts";
import type { Conversation } from "./a2a-conversation.ts";
import { cancelRemote, type ExchangeInput, follow, sendAndFollow } from "./a2a-exchange.ts";
import { ActivationLimits } from "./activation-limits.ts";
import type { RemoteAgent } from "./remote-agent.ts";
import { type TaskEnd, TaskTracker } from "./task-tracker.ts";

/** How long a cancel of the remote task may hold up the end of an activation. */
const CANCEL_GRACE_MS = 5_000;

/** Follows the question of an agent in INPUT_REQUIRED, which is the child's answer. */
const AWAITING = "(The remote agent is waiting for your answer to this: reply with task_send.)";

export interface RemoteChild {
  agent: RemoteAgent;
  spec: RemoteChildSpec;
  /** Where it runs, as its events name its model. */
  label: string;
  conversation: Conversation;
}

/** What an activation begins with: a message to send, or a remote task already under way to follow. */
export type Opening =
  | { kind: "send"; messages: UserMessage[] }
  | { kind: "follow"; taskId: string | undefined };

/**
 * One activation of a remote child: one or more A2A tasks in its conversation (`contextId`) until it
 * has an answer. Messages sent meanwhile wait here and go to the agent as the next message of the
 * conversation when its task completes (or at once when `interrupt` cancels the task in flight),
 * so they work with any A2A agent. INPUT_REQUIRED ends the activation with the agent's question as
 * the child's answer; the next message goes to that task. Never rejects: every failure is an `error`
 * outcome naming the agent's URL.
 */
export class A2aActivation implements Activation {
  readonly done: Promise<ActivationResult>;
  private readonly child: RemoteChild;
  private readonly input: FollowInput;
  private readonly mailbox = new Mailbox();
  private readonly step = new InterruptibleStep();
  private readonly startedAt = Date.now();

  constructor(child: RemoteChild, input: ActivationInput | FollowInput, opening: Opening) {
    this.child = child;
    this.input = input;
    this.done = this.run(opening);
  }

  get ref(): ExecutorRef {
    const { conversation } = this.child;
    return {
      kind: "a2a",
      url: this.child.agent.url,
      contextId: conversation.contextId,
      ...(conversation.taskId === undefined ? {} : { taskId: conversation.taskId }),
    };
  }

  send(message: UserMessage): boolean {
    return this.mailbox.push(message);
  }

  interrupt(): void {
    this.step.interrupt();
  }

  private async run(opening: Opening): Promise<ActivationResult> {
    const { spec, agent } = this.child;
    const limits = new ActivationLimits(this.input.signal, spec.limits, agent.url);
    const totals = { usage: emptyUsage(), turns: 0 };
    this.emit({
      type: "agent_start",
      agentPath: [...spec.agentPath],
      sessionId: spec.taskId,
      parentSessionId: spec.parentSessionId,
      agentType: spec.agent.name,
      model: this.child.label,
      // It runs there: a trace leaves its spans to the agent (under the traceparent it is sent).
      runsOn: agent.url,
    });
    let end: OutcomeEnd;
    let text = "";
    try {
      let next: Opening = opening;
      while (true) {
        const result = await this.exchange(next, limits, totals);
        text = result.text;
        const messages = this.mailbox.take();
        if (result.state === "interrupted") {
          next = {
            kind: "send",
            messages: messages.length > 0 ? messages : [userText(GO_ON_AFTER_INTERRUPT)],
          };
          continue;
        }
        if ((result.state === "completed" || result.state === "input-required") && messages.length > 0) {
          next = { kind: "send", messages };
          continue;
        }
        end = endOf(result, agent.url);
        if (result.state === "input-required") text = `${result.text.trim()}\n\n${AWAITING}`;
        break;
      }
    } catch (error) {
      end = limits.signal.aborted
        ? limits.end()
        : { status: "error", error: describeRemoteFailure(agent.url, error) };
    } finally {
      limits.dispose();
    }
    this.mailbox.close();
    const outcome = activationOutcome(end, {
      sessionId: spec.taskId,
      startedAt: this.startedAt,
      text,
      turns: totals.turns,
      usage: totals.usage,
    });
    this.emit({ type: "agent_end", agentPath: [...spec.agentPath], outcome });
    return { outcome };
  }

  /** One remote task: sent (or followed) to its end; cancelled remotely when it is stopped here. */
  private async exchange(
    opening: Opening,
    limits: ActivationLimits,
    totals: { usage: Usage; turns: number },
  ): Promise<TaskEnd | { state: "interrupted"; text: string }> {
    const { agent, conversation, spec } = this.child;
    if (opening.kind === "send") await conversation.checkAwaiting(agent);
    let turnUsage = emptyUsage();
    let turns = 0;
    const answering = opening.kind === "send" ? conversation.awaiting : undefined;
    const tracker = new TaskTracker(
      agent.url,
      (events) => {
        for (const event of events) {
          if (event.path.length === 0 && event.type === "turn_end") {
            limits.used(event.usage);
            turnUsage = addUsage(turnUsage, event.usage);
            turns++;
          }
          this.emit(relocate(event, spec.agentPath));
        }
      },
      answering?.asked,
    );
    try {
      const end = await this.step.run(limits.signal, async (signal) => {
        const input: ExchangeInput = {
          agent,
          signal,
          tracker,
          onActivity: () => limits.activity(),
          onTask: (taskId) => this.noteTask(taskId),
          onLateTask: (taskId) => void cancelRemote(agent, taskId),
          ...(spec.traceparent === undefined ? {} : { traceparent: spec.traceparent }),
        };
        try {
          if (opening.kind === "follow") {
            const taskId = opening.taskId ?? (await conversation.latestTask(agent, signal));
            this.noteTask(taskId);
            return await follow(taskId, input);
          }
          const message = a2aMessage(opening.messages, {
            contextId: conversation.contextId,
            taskId: answering?.taskId,
          });
          conversation.awaiting = undefined;
          return await sendAndFollow(message, input);
        } catch (error) {
          const taskId = tracker.taskId;
          if (signal.aborted && taskId !== undefined) await this.cancel(taskId);
          throw error;
        }
      });
      conversation.awaiting =
        end.state === "input-required" ? { taskId: end.taskId, asked: end.asked } : undefined;
      // The agent's own count when it gives one (agentry serve does), else what its events showed.
      totals.usage = addUsage(totals.usage, tracker.usage ?? turnUsage);
      totals.turns += tracker.turns ?? Math.max(turns, 1);
      return end;
    } catch (error) {
      if (this.step.takeInterrupted() && !limits.signal.aborted)
        return { state: "interrupted", text: tracker.text() };
      throw error;
    }
  }

  /** Cancels the remote task, waiting a little for the agent to confirm before the next message. */
  private async cancel(taskId: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CANCEL_GRACE_MS);
    });
    await Promise.race([cancelRemote(this.child.agent, taskId), grace]);
    clearTimeout(timer);
  }

  private noteTask(taskId: string): void {
    const { conversation } = this.child;
    if (conversation.taskId === taskId) return;
    conversation.taskId = taskId;
    this.input.onRef?.(this.ref);
  }

  private emit(event: AgentEvent): void {
    this.input.emit(event);
  }
}

function endOf(result: TaskEnd, url: string): OutcomeEnd {
  switch (result.state) {
    case "completed":
    case "input-required":
      return { status: "completed" };
    case "failed":
      return { status: "error", error: result.error };
    case "canceled":
      return { status: "aborted", reason: `the remote agent at ${url} cancelled the task` };
  }
}
