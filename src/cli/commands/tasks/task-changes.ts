import type { TaskStore } from "../../../tasks/task-store.ts";

export interface TaskChanges {
  /** Whether changes are pushed (the store can `watch`): a caller may then wait longer between reads. */
  readonly watching: boolean;
  /** Resolves when the task may have changed, or after `ms` at the latest. */
  next(ms: number): Promise<void>;
  stop(): void;
}

/**
 * What `tasks wait` and `tasks cancel` wait on: a change of one task, heard at once from a store that
 * pushes changes (Redis), else found by reading again after a poll interval.
 */
export function taskChanges(store: TaskStore, taskId: string): TaskChanges {
  let wake: (() => void) | undefined;
  let heard = false;
  const unwatch = store.watch?.((change) => {
    if (change.kind === "changed" && !change.taskIds.includes(taskId)) return;
    heard = true;
    wake?.();
  });
  return {
    watching: unwatch !== undefined,
    async next(ms) {
      if (!heard)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      wake = undefined;
      heard = false;
    },
    stop: () => unwatch?.(),
  };
}
