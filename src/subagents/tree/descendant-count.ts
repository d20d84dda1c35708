import { newSessionId } from "../../agent/session/session-id.ts";

/**
 * Where a tree counts the descendants it started, against `maxDescendants`: in this process (the
 * default), or where every machine of a fleet counts them (the fleet's Redis), so a tree whose children
 * run on workers and start children there holds its cap across machines. Its `treeId` travels in each
 * child's spec, so a worker counts into the same place.
 */
export interface DescendantCount {
  readonly treeId: string;
  /** One more descendant, unless the tree already has `max`: false then. */
  reserve(max: number): Promise<boolean>;
  /** One fewer: a child that was counted and never started. */
  release(): Promise<void>;
}

/** A tree counted in this process only. */
export function localDescendantCount(treeId = newSessionId({ prefix: "tree" })): DescendantCount {
  let count = 0;
  return {
    treeId,
    reserve: async (max) => {
      if (count >= max) return false;
      count++;
      return true;
    },
    release: async () => {
      count = Math.max(0, count - 1);
    },
  };
}
