import { randomBytes } from "node:crypto";
import { TaskNotFoundError, TaskStoreError } from "../tasks/task-errors.ts";
import { MESSAGE_MAX_CHARS } from "../tasks/task-limits.ts";
import { isFinished } from "../tasks/task-status.ts";
import type { TaskStore } from "../tasks/task-store.ts";
import type { TaskFeed } from "./task-feed.ts";

export interface ActionAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** A cancel that no owner answered within this long: the owner may be gone, so orphans are swept. */
const SWEEP_AFTER_MS = 5_000;

/**
 * The page's actions, through the store as `agentry tasks cancel` does: a cancel sets the record's
 * `cancelRequested` for its owner to carry out, a message goes into its inbox for its owner to deliver.
 * The page sees the outcome in the tree (the record changes); the answer says only what was asked.
 */
export function taskActions(deps: {
  store: TaskStore;
  feed: TaskFeed;
  sweep?: () => Promise<void>;
  log: (line: string) => void;
}) {
  const { store, feed, log } = deps;
  return {
    async cancel(taskId: string): Promise<ActionAnswer> {
      const before = await find(store, taskId);
      if (before === undefined) return notFound(taskId);
      if (isFinished(before.status))
        return { status: 409, body: { error: `Task ${taskId} has already finished (${before.status}).` } };
      await store.requestCancel(taskId);
      log(`cancel requested for task ${taskId} (owner ${before.owner})`);
      await feed.refresh([taskId]);
      if (deps.sweep !== undefined) {
        const sweep = deps.sweep;
        setTimeout(async () => {
          const now = await store.get(taskId).catch(() => undefined);
          if (now !== undefined && !isFinished(now.status)) await sweep().catch(() => {});
        }, SWEEP_AFTER_MS).unref();
      }
      return { status: 202, body: { taskId, cancelRequested: true } };
    },

    async message(taskId: string, body: unknown): Promise<ActionAnswer> {
      const text = typeof body === "object" && body !== null && "text" in body ? body.text : undefined;
      if (typeof text !== "string" || text.trim() === "")
        return { status: 400, body: { error: 'Send { "text": "…" } with the message.' } };
      if (text.length > MESSAGE_MAX_CHARS)
        return { status: 400, body: { error: `A message is at most ${MESSAGE_MAX_CHARS} characters.` } };
      const before = await find(store, taskId);
      if (before === undefined) return notFound(taskId);
      if (isFinished(before.status))
        return {
          status: 409,
          body: { error: `Task ${taskId} has finished (${before.status}): it reads no more messages.` },
        };
      const id = `ui-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
      const after = await store.sendMessage(taskId, { id, text, at: new Date().toISOString() });
      if (!after.inbox?.some((message) => message.id === id)) {
        const why = isFinished(after.status)
          ? `has finished (${after.status})`
          : "has too many messages not yet delivered";
        return { status: 409, body: { error: `Task ${taskId} ${why}; the message was not sent.` } };
      }
      log(`message ${id} queued for task ${taskId}`);
      await feed.refresh([taskId]);
      return { status: 202, body: { taskId, messageId: id } };
    },
  };
}

async function find(store: TaskStore, taskId: string) {
  try {
    return await store.get(taskId);
  } catch (error) {
    if (error instanceof TaskNotFoundError || error instanceof TaskStoreError) return undefined;
    throw error;
  }
}

function notFound(taskId: string): ActionAnswer {
  return { status: 404, body: { error: `No task ${JSON.stringify(taskId)} in this store.` } };
}
