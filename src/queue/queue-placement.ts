import type { ChildPlacement } from "../subagents/child-placement.ts";
import { prepareChildWorkspace } from "../subagents/child-workspace.ts";
import type { FleetClient } from "./fleet-client.ts";
import { snapshotRemote } from "./git-snapshot.ts";
import { queueExecutor } from "./queue-executor.ts";

/**
 * Every child of a tree runs as jobs on the fleet's queue (built here, run by a worker). A worktree
 * child gets no worktree here: its worker makes one from a snapshot the parent pushes to the fleet's
 * git remote (checked now, so a child that cannot travel fails before it is queued).
 */
export function queuePlacement(client: FleetClient): ChildPlacement {
  return {
    executor: (local) => queueExecutor(local, client),
    workspace: async (options) => {
      if (options.mode !== "worktree") return prepareChildWorkspace(options);
      await snapshotRemote(options.parentWorkspace, client.remote);
      return {
        mode: "worktree",
        path: options.parentWorkspace,
        reopen: async () => {},
        finish: async () => ({}),
      };
    },
  };
}
