import type { ChildPlacement } from "../subagents/child-placement.ts";
import { prepareChildWorkspace } from "../subagents/child-workspace.ts";
import type { FleetClient } from "./fleet-client.ts";
import { worktreeRefused } from "./job-workspace.ts";
import { queueExecutor } from "./queue-executor.ts";

/**
 * Every child of a tree runs as jobs on the fleet's queue (built here, run by a worker). A worktree
 * child is refused before its worktree is made: the task tool tells the model why.
 */
export function queuePlacement(client: FleetClient): ChildPlacement {
  return {
    executor: (local) => queueExecutor(local, client),
    workspace: async (options) => {
      if (options.mode === "worktree") throw worktreeRefused();
      return prepareChildWorkspace(options);
    },
  };
}
