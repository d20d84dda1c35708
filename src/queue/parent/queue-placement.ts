import type { ChildPlacement, LoopChildSpec } from "../../subagents/placement.ts";
import { type ChildWorkspace, prepareChildWorkspace, workspaceOptions } from "../../subagents/placement.ts";
import type { FleetClient } from "./fleet-client.ts";
import { snapshotRemote } from "./git-snapshot.ts";
import { queueExecutor } from "./queue-executor.ts";

/**
 * Every loop child of a tree runs as jobs on the fleet's queue: its parent describes it (its spec) and
 * keeps its conversation, a worker runs it. A worktree child gets no worktree here: its worker makes
 * one from a snapshot the parent pushes to the fleet's git remote (checked now, so a child that cannot
 * travel fails before it is queued).
 */
export function queuePlacement(client: FleetClient): ChildPlacement & {
  /** The child's workspace as the parent keeps it (for a worktree child: the snapshot's source). */
  workspace(spec: LoopChildSpec): Promise<ChildWorkspace>;
} {
  const workspace = async (spec: LoopChildSpec): Promise<ChildWorkspace> => {
    const options = workspaceOptions(spec);
    if (options.mode !== "worktree") return prepareChildWorkspace(options);
    await snapshotRemote(options.parentWorkspace, client.remote);
    return {
      mode: "worktree",
      path: options.parentWorkspace,
      reopen: async () => {},
      finish: async () => ({}),
    };
  };
  return {
    kind: "queue",
    workspace,
    takes: (spec) => spec.kind === "loop",
    // A job of this queue outlives its parent: a resumed parent follows it to its result.
    follows: (ref) => ref.kind === "queue" && ref.queue === client.queueName,
    async open({ spec, session }) {
      if (spec.kind !== "loop") throw new Error(`agent "${spec.agent.name}" does not run agentry's loop`);
      const made = await workspace(spec);
      let opened: Awaited<ReturnType<typeof session>>;
      try {
        opened = await session(spec);
      } catch (error) {
        await made.finish().catch(() => {});
        throw error;
      }
      return {
        executor: queueExecutor({ spec, session: opened, workspace: made }, client),
        model: spec.model,
        session: opened,
        discard: async () => {
          await made.finish();
        },
      };
    },
  };
}
