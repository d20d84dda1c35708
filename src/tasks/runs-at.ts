import type { ExecutorRef } from "./task-record.ts";

/**
 * Where a task runs when not in its owner's process, in words for people and models: a remote A2A
 * agent's URL and task, or a queued job. (No zod here: `agentry tasks` reads records without it.)
 */
export function runsAt(ref: ExecutorRef): string {
  if (ref.kind === "queue") return `queue ${ref.queue}, job ${ref.jobId}`;
  return `remote A2A agent ${ref.url}, task ${ref.taskId ?? "(not named yet)"}, context ${ref.contextId}`;
}
