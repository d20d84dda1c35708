import { randomUUID } from "node:crypto";
import { type Task, TaskState } from "@a2a-js/sdk";
import type { ExecutorRef } from "../../tasks/task-record.ts";
import { RemoteAgentError } from "../remote-errors.ts";
import type { RemoteAgent } from "./remote-agent.ts";

/** How long `latestTask` looks for the task of a conversation that was just started. */
const FIND_TASK_MS = 5_000;

/**
 * A remote child's conversation with its agent, across activations: the A2A `contextId` that keeps
 * its history there, its latest task, and the task waiting for an answer (INPUT_REQUIRED), if any.
 */
export class Conversation {
  readonly contextId: string;
  taskId: string | undefined;
  /** A task in INPUT_REQUIRED and its question's mark: the child's next message answers it. */
  awaiting: { taskId: string; asked: string } | undefined;
  /** Rebuilt from a record: whether its last task waits for input is asked once, before a message. */
  private unsure: boolean;

  private constructor(contextId: string, taskId: string | undefined, unsure: boolean) {
    this.contextId = contextId;
    this.taskId = taskId;
    this.unsure = unsure;
  }

  /** A new conversation: its own random context, so no one else's history can mix into it. */
  static fresh(): Conversation {
    return new Conversation(randomUUID(), undefined, false);
  }

  /** The conversation a record's `ref` names. */
  static of(ref: Extract<ExecutorRef, { kind: "a2a" }>): Conversation {
    return new Conversation(ref.contextId, ref.taskId, ref.taskId !== undefined);
  }

  /** After a restart: if the last task waits for input, the next message must go to it. */
  async checkAwaiting(agent: RemoteAgent): Promise<void> {
    if (!this.unsure || this.taskId === undefined) return;
    this.unsure = false;
    try {
      const client = await agent.client();
      const task = await client.getTask(
        { tenant: "", id: this.taskId, historyLength: 0 },
        { signal: AbortSignal.timeout(agent.timeoutMs) },
      );
      const status = task.status;
      if (status?.state === TaskState.TASK_STATE_INPUT_REQUIRED)
        this.awaiting = { taskId: task.id, asked: status.message?.messageId || status.timestamp || "" };
    } catch {
      // Gone or unreachable: the message starts a new task in the context, which says what is wrong.
    }
  }

  /**
   * The newest task of this conversation, for a follow from a ref written before the agent named
   * its task. Looked for a few seconds (the message may still be on its way); needs ListTasks,
   * which A2A 0.3 agents lack.
   */
  async latestTask(agent: RemoteAgent, signal: AbortSignal): Promise<string> {
    const client = await agent.client();
    const deadline = Date.now() + FIND_TASK_MS;
    while (true) {
      const listed = await client.listTasks(
        {
          tenant: "",
          contextId: this.contextId,
          status: TaskState.TASK_STATE_UNSPECIFIED,
          pageToken: "",
          statusTimestampAfter: undefined,
        },
        { signal },
      );
      const newest = listed.tasks.sort((a, b) => stamp(b) - stamp(a))[0];
      if (newest !== undefined) return newest.id;
      if (Date.now() > deadline)
        throw new RemoteAgentError(
          `the remote agent at ${agent.url} has no task in conversation ${this.contextId} to follow`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function stamp(task: Task): number {
  const at = Date.parse(task.status?.timestamp ?? "");
  return Number.isNaN(at) ? 0 : at;
}
