import type { AgentRegistry } from "../../agents/agent-registry.ts";
import type { Model } from "../../model/model.ts";
import type { ChildRecordKeeping } from "../child/child.ts";
import type { BuildDeps } from "../child/child-config.ts";
import type { ChildPlacement } from "../run/child-placement.ts";
import type { RunDeps } from "../run/run-child.ts";
import type { ChildTree } from "../tree/child-tree.ts";

/** What starting, continuing and rebuilding children takes from their tree. */
export interface SpawnDeps {
  tree: ChildTree;
  records: ChildRecordKeeping;
  run: RunDeps;
  build: BuildDeps;
  /** Where children run, in order: the first that takes a child's spec runs it (`choosePlacement`). */
  placements: readonly ChildPlacement[];
  registry: AgentRegistry;
  /** Builds a model from an id or alias. */
  createModel: (id: string) => Model;
  /** Where children's transcripts are stored: the root's workspace. */
  sessionsWorkspace: string;
  persistSessions: boolean;
  /** How long a sync `task` call waits before its child is promoted to the background. */
  timeoutMs: number;
  /** Sweeps the store for orphans now. */
  sweep: () => Promise<void>;
}
