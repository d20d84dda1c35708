import type { Model } from "../../model/model.ts";
import type { BuildDeps } from "../child/child-config.ts";
import { childFromSpec, inProcessHost } from "../child/child-from-spec.ts";
import type { LoopChildSpec } from "../child/child-spec.ts";
import { prepareChildWorkspace, workspaceOptions } from "../child/child-workspace.ts";
import type { ChildOpening, ChildPlacement, PlacedChild } from "./child-placement.ts";
import { inProcessExecutor } from "./in-process-executor.ts";

/**
 * This process: a loop child is made from its spec under its caller (`inProcessHost`) in its own
 * workspace (`shared`, `isolated` or a `worktree` here), and run by the in-process executor. Every tree
 * ends its placements with it.
 */
export function localPlacement(
  deps: Pick<BuildDeps, "baseTools" | "spawnKitFor" | "compaction" | "warn">,
): ChildPlacement {
  return {
    kind: "local",
    takes: (spec) => spec.kind === "loop",
    async open(opening: ChildOpening): Promise<PlacedChild> {
      const { spec, model } = loopChild(opening);
      const workspace = await prepareChildWorkspace(workspaceOptions(spec));
      const local = await childFromSpec(
        spec,
        inProcessHost(deps, opening.caller, model, opening.definition),
        workspace,
        () => opening.session(spec),
      );
      return {
        executor: inProcessExecutor(local, deps.warn),
        model: spec.model,
        session: local.session,
        discard: async () => {
          await local.workspace.finish();
        },
      };
    },
  };
}

/** The spec and model of a child a loop placement took (the runtime opens a loop child with its model). */
export function loopChild(opening: ChildOpening): { spec: LoopChildSpec; model: Model } {
  const { spec, model } = opening;
  if (spec.kind !== "loop" || model === undefined)
    throw new Error(`agent "${spec.agent.name}" is not a child this placement runs`);
  return { spec, model };
}
