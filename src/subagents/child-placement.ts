import type { ChildWorkspace, ChildWorkspaceOptions } from "./child-workspace.ts";
import type { ChildExecutor } from "./executor.ts";
import type { LocalChild } from "./local-child.ts";

/**
 * Where the children of a tree run. A child is always built here — its definition, rules, tools,
 * config and transcript (`buildChild`) — and by default its loop runs here too. A placement hands such
 * a child to another executor (a queue of workers, a remote agent), which runs it elsewhere from what
 * was built, while the tree keeps its state, record and transcript here.
 */
export interface ChildPlacement {
  /** The executor of a child built here. */
  executor(local: LocalChild): ChildExecutor;
  /**
   * Prepares the child's workspace in this process (default: `prepareChildWorkspace`). An executor
   * that runs the child on another machine makes its worktree there, not here.
   */
  workspace?(options: ChildWorkspaceOptions): Promise<ChildWorkspace>;
}
