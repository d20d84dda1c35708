import { basename, dirname, join, relative, resolve } from "node:path";
import { isInside } from "../text/path-inside.ts";
import type { Operations } from "./operations.ts";
import { ToolError } from "./tool.ts";
import { toPosix } from "./walk/walk-files.ts";

export interface WorkspacePath {
  /** Absolute real path: symlinks resolved (for a path that does not exist yet, those of its nearest existing ancestor). */
  absolute: string;
  /** Relative to the workspace root, `/`-separated; `.` for the root itself. Used for permission patterns. */
  relative: string;
  /** Real path of the workspace root. */
  root: string;
  exists: boolean;
}

/**
 * Resolves a path the model gave (relative to the workspace, or absolute) and refuses anything whose real
 * location is outside the workspace: `..` traversal, absolute paths elsewhere, and symlinks (the file or
 * any parent directory) pointing outside. Tools act on the returned real path, never on the raw input, so
 * a check cannot be bypassed by a link that the later I/O would follow.
 */
export async function resolveWorkspacePath(
  context: { workspace: string; ops: Operations },
  input: string,
): Promise<WorkspacePath> {
  const { ops } = context;
  if (input.trim() === "") throw new ToolError("The path is empty; give a path relative to the workspace.");
  if (input.includes("\0")) throw new ToolError(`The path ${JSON.stringify(input)} contains a NUL byte.`);
  const root = await ops.realpath(context.workspace);
  const lexical = resolve(context.workspace, input);

  // Walk up to the nearest existing ancestor; the missing tail cannot contain symlinks.
  const tail: string[] = [];
  let existing = lexical;
  let stat = await ops.lstat(existing);
  while (stat === undefined) {
    const parent = dirname(existing);
    if (parent === existing) break;
    tail.unshift(basename(existing));
    existing = parent;
    stat = await ops.lstat(existing);
  }
  let real: string;
  try {
    real = await ops.realpath(existing);
  } catch {
    // A dangling symlink: writing through it would create its target, wherever that is.
    throw new ToolError(
      `Refusing ${JSON.stringify(input)}: ${existing} is a symbolic link whose target does not exist, so where it leads cannot be checked against the workspace ${root}.`,
    );
  }
  const absolute = join(real, ...tail);
  const fromRoot = relative(root, absolute);
  if (!isInside(absolute, root)) {
    const how = isInside(resolve(root, relative(context.workspace, lexical)), root)
      ? " through a symbolic link"
      : "";
    throw new ToolError(
      `Refusing ${JSON.stringify(input)}: it resolves${how} to ${absolute}, which is outside the workspace. Only paths inside the workspace root ${root} can be used.`,
    );
  }
  return { absolute, relative: fromRoot === "" ? "." : toPosix(fromRoot), root, exists: tail.length === 0 };
}

/** How to name a workspace-relative path in a sentence. */
export function placeName(relativePath: string): string {
  return relativePath === "." ? "the workspace" : relativePath;
}
