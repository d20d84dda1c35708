import { createHash } from "node:crypto";
import type { Outcome } from "../../contracts/outcome.ts";
import type { UserMessage } from "../../model/messages.ts";
import { SAFE_ID } from "../../tasks/safe-id.ts";
import { failOrphans } from "../../tasks/sweeper.ts";
import type { TaskPatch, TaskRecord } from "../../tasks/task-record.ts";
import type { TaskStore } from "../../tasks/task-store.ts";
import type { ServedChild } from "./served-agents.ts";

/** The parent agent id of served tasks: an A2A client stands where a parent agent would. */
export const SERVED_CLIENT = "a2a-client";

export interface ServedTaskArrival {
  taskId: string;
  contextId: string;
  url: string;
  agent: string;
  message: UserMessage;
}

export interface ServedRecordsOptions {
  /** A PENDING/RUNNING record whose owner is silent this long (and not provably alive) is orphaned. */
  orphanTimeoutMs?: number;
}

/**
 * Writes the tasks `agentry serve` runs into the workspace's `TaskStore`, so `agentry tasks list` on
 * that machine shows them and a restarted server still answers GetTask and ListTasks for them: one
 * record per A2A task, PENDING as soon as it arrives (waiting for a slot), RUNNING when it starts and
 * finished as its child's outcome says, its `ref` naming the agent's URL, the A2A context and task. A
 * follow-up task of the same context is a record of its own in the same parent session (the context),
 * which names the conversation's session, so the context can be taken up again from disk.
 */
export class ServedRecords {
  private readonly store: TaskStore;
  private readonly owner: string;
  private readonly orphanTimeoutMs: number;

  constructor(store: TaskStore, owner: string, options: ServedRecordsOptions = {}) {
    this.store = store;
    this.owner = owner;
    this.orphanTimeoutMs = options.orphanTimeoutMs ?? 60_000;
  }

  /** A task arrived: PENDING until a slot frees (a cancel or a kill meanwhile still leaves its record). */
  async arrive(task: ServedTaskArrival): Promise<void> {
    const firstLine = task.message.content.find((part) => part.type === "text")?.text.split("\n")[0] ?? "";
    await this.store.create({
      taskId: task.taskId,
      agentType: task.agent,
      parentAgentId: SERVED_CLIENT,
      parentSessionId: contextSession(task.contextId),
      // The conversation is opened once the task has a slot.
      childSessionId: "",
      description: firstLine.slice(0, 120),
      owner: this.owner,
      background: true,
      status: "PENDING",
      ref: { kind: "a2a", url: task.url, contextId: task.contextId, taskId: task.taskId },
    });
  }

  /** The task has a slot and its conversation: RUNNING, with the conversation's session. */
  async start(taskId: string, child: ServedChild): Promise<void> {
    await this.store.update(taskId, {
      status: "RUNNING",
      childSessionId: child.sessionId,
      model: child.model,
      agentPath: [...child.agentPath],
    });
  }

  /** The task is still here: its heartbeat, so no sweeper takes it for an orphan. */
  async beat(taskId: string): Promise<void> {
    await this.store.heartbeat([taskId]);
  }

  async finish(taskId: string, outcome: Outcome | undefined, failure: string | undefined): Promise<void> {
    await this.store.update(taskId, finished(outcome, failure));
  }

  /**
   * The record of a task of `agent`, as it stands: one left PENDING or RUNNING by a process that is
   * gone (a killed or restarted server) is marked FAILED `orphaned` first.
   */
  async task(taskId: string, agent: string): Promise<TaskRecord | undefined> {
    const record = await this.store.get(taskId).catch(() => undefined);
    if (record === undefined || !isServed(record, agent)) return undefined;
    const [settled] = await this.settle([record]);
    return settled;
  }

  /** Every recorded task of `agent` (of one context, when given), orphans settled as in `task`. */
  async tasks(agent: string, contextId?: string): Promise<TaskRecord[]> {
    const records = await this.store.list({
      parentAgentId: SERVED_CLIENT,
      ...(contextId === undefined ? {} : { parentSessionId: contextSession(contextId) }),
      onUnreadable: () => {},
    });
    return this.settle(records.filter((record) => isServed(record, agent, contextId)));
  }

  /** The session of the context's conversation with `agent` (its latest task's), to take it up again. */
  async sessionOf(contextId: string, agent: string): Promise<string | undefined> {
    const records = await this.store
      .list({
        parentAgentId: SERVED_CLIENT,
        parentSessionId: contextSession(contextId),
        onUnreadable: () => {},
      })
      .catch(() => []);
    return records.find((record) => isServed(record, agent, contextId) && record.childSessionId !== "")
      ?.childSessionId;
  }

  private async settle(records: TaskRecord[]): Promise<TaskRecord[]> {
    const active = records.filter(
      (record) => (record.status === "PENDING" || record.status === "RUNNING") && record.owner !== this.owner,
    );
    if (active.length === 0) return records;
    const orphaned = new Map(
      (await failOrphans(this.store, active, { staleAfterMs: this.orphanTimeoutMs })).map((r) => [
        r.taskId,
        r,
      ]),
    );
    return records.map((record) => orphaned.get(record.taskId) ?? record);
  }
}

function isServed(record: TaskRecord, agent: string, contextId?: string): boolean {
  return (
    record.parentAgentId === SERVED_CLIENT &&
    record.agentType === agent &&
    record.ref?.kind === "a2a" &&
    (contextId === undefined || record.ref.contextId === contextId)
  );
}

/** A context id as a parent session id: itself when it is a safe id, else a digest of it. */
function contextSession(contextId: string): string {
  const id = `a2a-${contextId}`;
  return SAFE_ID.test(id) ? id : `a2a-${createHash("sha256").update(contextId).digest("hex").slice(0, 32)}`;
}

function finished(outcome: Outcome | undefined, failure: string | undefined): TaskPatch {
  if (outcome === undefined)
    return failure === undefined
      ? { status: "CANCELLED", reason: "cancelled", error: "cancelled before it started" }
      : { status: "FAILED", error: failure };
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
