import { randomUUID } from "node:crypto";
import { type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import type { TaskRecord } from "../../tasks/task-record.ts";
import { textPart } from "../a2a-parts.ts";

/**
 * A served task known only from its record (the server that ran it restarted, or let go of it from
 * memory), as an A2A Task: its state, its answer as the artifact, the reason of a failure or a cancel
 * as the status message. The record keeps no messages: its history is empty.
 */
export function recordTask(record: TaskRecord): Task {
  const contextId = record.ref?.kind === "a2a" ? record.ref.contextId : "";
  const state = stateOf(record);
  const text =
    record.status === "COMPLETED"
      ? undefined
      : (record.error ?? (state === TaskState.TASK_STATE_WORKING ? undefined : record.status));
  return {
    id: record.taskId,
    contextId,
    status: {
      state,
      message: text === undefined ? undefined : agentMessage(text, contextId, record.taskId),
      timestamp: record.updatedAt,
    },
    artifacts:
      record.status === "COMPLETED" && record.result !== undefined
        ? [
            {
              artifactId: `${record.taskId}-answer`,
              name: "answer",
              description: "",
              parts: [textPart(record.result)],
              metadata: undefined,
              extensions: [],
            },
          ]
        : [],
    history: [],
    metadata: undefined,
  };
}

function stateOf(record: TaskRecord): TaskState {
  switch (record.status) {
    case "PENDING":
    case "RUNNING":
      // A served task says WORKING from its arrival, also while it waits for a slot.
      return TaskState.TASK_STATE_WORKING;
    case "COMPLETED":
      return TaskState.TASK_STATE_COMPLETED;
    case "CANCELLED":
      return TaskState.TASK_STATE_CANCELED;
    case "FAILED":
      return TaskState.TASK_STATE_FAILED;
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
