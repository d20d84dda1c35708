import type { TaskRecord } from "../../tasks/task-record.ts";
import { errorMessage } from "../../text/error-message.ts";
import { Child } from "../child/child.ts";
import { type RunRequest, runChild } from "../run/run-child.ts";
import type { CallerScope } from "../tree/caller-scope.ts";
import { placeRecorded } from "./restore-child.ts";
import type { SpawnDeps } from "./spawn-deps.ts";

/**
 * Takes up the children of the root session `sessionId` that outlived the process that started them: a
 * background child whose activation runs elsewhere (a remote agent's task, a queued job) goes on when
 * agentry dies, so on its session's next run its record — orphaned by the sweep, never delivered, with
 * where it runs in its `ref` — is reopened here and followed (`ChildExecutor.follow`) to its end; the
 * parent is notified as of any background child. Only refs a placement of this tree can follow; each
 * record once; one that cannot be taken up stays as the sweep left it.
 */
export async function adoptChildren(
  deps: SpawnDeps,
  caller: CallerScope,
  sessionId: string,
  emit: RunRequest["emit"],
): Promise<void> {
  const records = await deps.records.store.list({
    parentSessionId: sessionId,
    status: ["FAILED"],
    onUnreadable: () => {}, // The sweep reports unreadable files.
  });
  const adopted: string[] = [];
  for (const record of records) {
    const { ref } = record;
    if (!adoptable(record) || ref === undefined || deps.tree.get(record.taskId) !== undefined) continue;
    if (!deps.placements.some((placement) => placement.follows?.(ref) === true)) continue;
    const definition = deps.registry.get(record.agentType);
    if (definition === undefined) continue;
    try {
      const where = {
        definition,
        path: record.agentPath ?? [],
        depth: 1,
        parentWorkspace: deps.sessionsWorkspace,
      };
      const { identity, executor } = await placeRecorded(deps, caller, record, where, true);
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
      adopted.push(`${record.taskId} (${whereItRuns(ref)})`);
    } catch (error) {
      deps.build.warn(`task ${record.taskId}: it could not be taken up again: ${errorMessage(error)}`);
    }
  }
  if (adopted.length > 0)
    deps.build.warn(
      `following ${adopted.length === 1 ? "a task" : `${adopted.length} tasks`} that outlived the process that started ${adopted.length === 1 ? "it" : "them"}: ${adopted.join(", ")}; ${adopted.length === 1 ? "its result comes" : "their results come"} as notifications`,
    );
}

/** Where a followed activation runs, for the parent's line. */
function whereItRuns(ref: NonNullable<TaskRecord["ref"]>): string {
  return ref.kind === "queue" ? `job ${ref.jobId} on queue "${ref.queue}"` : `A2A task at ${ref.url}`;
}

/** Orphaned (its process died), never delivered, and where it ran is known. */
function adoptable(record: TaskRecord): boolean {
  return (
    record.reason === "orphaned" &&
    record.deliveredAt === undefined &&
    (record.ref?.kind !== "a2a" || record.ref.taskId !== undefined)
  );
}
