import { createHash } from "node:crypto";
import type { Outcome } from "../contracts/outcome.ts";
import type { UserMessage } from "../model/messages.ts";
import { SAFE_ID } from "../tasks/safe-id.ts";
import type { TaskPatch } from "../tasks/task-record.ts";
import type { TaskStore } from "../tasks/task-store.ts";
import type { ServedChild } from "./served-agents.ts";

/** The parent agent id of served tasks: an A2A client stands where a parent agent would. */
const CLIENT = "a2a-client";

export interface ServedTaskStart {
  taskId: string;
  contextId: string;
  url: string;
  agent: string;
  child: ServedChild;
  message: UserMessage;
}

/**
 * Writes the tasks `agentry serve` runs into the workspace's `TaskStore`, so `agentry tasks list` on
 * that machine shows them: one record per A2A task, RUNNING when it starts and finished as its child's
 * outcome says, its `ref` naming the agent's URL, the A2A context and task. A follow-up task of the
 * same context is a record of its own in the same parent session (the context).
 */
export class ServedRecords {
  private readonly store: TaskStore;
  private readonly owner: string;

  constructor(store: TaskStore, owner: string) {
    this.store = store;
    this.owner = owner;
  }

  async start(task: ServedTaskStart): Promise<void> {
    const firstLine = task.message.content.find((part) => part.type === "text")?.text.split("\n")[0] ?? "";
    await this.store.create({
      taskId: task.taskId,
      agentType: task.agent,
      parentAgentId: CLIENT,
      parentSessionId: contextSession(task.contextId),
      childSessionId: task.child.sessionId,
      description: firstLine.slice(0, 120),
      owner: this.owner,
      model: task.child.model,
      agentPath: [...task.child.agentPath],
      background: true,
      status: "RUNNING",
      ref: { kind: "a2a", url: task.url, contextId: task.contextId, taskId: task.taskId },
    });
  }

  /** The task is still running here: its heartbeat, so no sweeper takes it for an orphan. */
  async beat(taskId: string): Promise<void> {
    await this.store.heartbeat([taskId]);
  }

  async finish(taskId: string, outcome: Outcome | undefined, failure: string | undefined): Promise<void> {
    await this.store.update(taskId, finished(outcome, failure));
  }
}

/** A context id as a parent session id: itself when it is a safe id, else a digest of it. */
function contextSession(contextId: string): string {
  const id = `a2a-${contextId}`;
  return SAFE_ID.test(id) ? id : `a2a-${createHash("sha256").update(contextId).digest("hex").slice(0, 32)}`;
}

function finished(outcome: Outcome | undefined, failure: string | undefined): TaskPatch {
  if (outcome === undefined) return { status: "FAILED", error: failure ?? "it did not run" };
  const base: TaskPatch = { usage: outcome.usage, ...(outcome.text.trim() ? { result: outcome.text } : {}) };
  switch (outcome.status) {
    case "completed":
      return { ...base, status: "COMPLETED" };
    case "aborted":
      return { ...base, status: "CANCELLED", reason: "cancelled", error: outcome.reason };
    case "max_turns":
      return {
        ...base,
        status: "FAILED",
        reason: "max_turns",
        error: `it reached its turn limit (${outcome.turns} turns)`,
      };
    case "budget_exceeded":
      return {
        ...base,
        status: "FAILED",
        reason: outcome.budget === "time" ? "timeout" : "budget",
        error: outcome.reason,
      };
    case "error":
      return {
        ...base,
        status: "FAILED",
        error: outcome.error,
        ...(outcome.reason === "stalled" ? { reason: "stalled" } : {}),
      };
  }
}
