import type { TaskRecord } from "../tasks/task-record.ts";
import { Child } from "./child.ts";
import { buildRemoteChild } from "./remote-child.ts";
import { type RunRequest, runChild } from "./run-child.ts";
import type { SpawnDeps } from "./spawn-deps.ts";

/**
 * Takes up the remote children of `sessionId` that outlived the process that started them: a
 * background task on a remote agent keeps running when agentry dies, so on a session's next run its
 * record — orphaned by the sweep, never delivered, with the remote task in its `ref` — is reopened
 * here and the task followed (`ChildExecutor.follow`) to its end; the parent is notified as of any
 * background child. Each record once; one that cannot be taken up stays as the sweep left it.
 */
export async function adoptRemoteChildren(
  deps: SpawnDeps,
  sessionId: string,
  emit: RunRequest["emit"],
): Promise<void> {
  if (deps.remote === undefined) return;
  const records = await deps.records.store.list({
    parentSessionId: sessionId,
    status: ["FAILED"],
    onUnreadable: () => {}, // The sweep reports unreadable files.
  });
  for (const record of records.filter(adoptable)) {
    if (deps.tree.get(record.taskId) !== undefined) continue;
    const definition = deps.registry.get(record.agentType);
    if (definition?.url === undefined || record.ref?.kind !== "a2a") continue;
    const ref = record.ref;
    try {
      const { identity, executor } = buildRemoteChild(deps.remote, deps.build.limits, {
        ...record,
        definition,
        agentPath: record.agentPath ?? [],
        ref,
      });
      const child = Child.restored(identity, executor, deps.records, true);
      deps.tree.add(child);
      const reopened = child.continue(true);
      void runChild(
        child,
        {
          description: record.description,
          parentSignal: new AbortController().signal,
          emit,
          progress: () => {},
          reopened,
          follow: ref,
        },
        deps.run,
      );
    } catch (error) {
      deps.build.warn(
        `task ${record.taskId}: its remote task could not be taken up again: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

/** Orphaned (its process died), never delivered, and its remote agent had named the task. */
function adoptable(record: TaskRecord): boolean {
  return (
    record.reason === "orphaned" &&
    record.deliveredAt === undefined &&
    record.ref?.kind === "a2a" &&
    record.ref.taskId !== undefined
  );
}
