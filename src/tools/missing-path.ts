import { basename, dirname, extname, relative } from "node:path";
import { editDistance } from "../text/edit-distance.ts";
import type { Operations } from "./operations.ts";
import { ToolError } from "./tool.ts";
import { toPosix } from "./walk/walk-files.ts";
import type { WorkspacePath } from "./workspace-path.ts";

/** A "not found" error that names the closest existing entries, so the model can correct a typo at once. */
export async function missingPathError(ops: Operations, target: WorkspacePath): Promise<ToolError> {
  const parent = dirname(target.absolute);
  const parentStat = await ops.stat(parent);
  if (!parentStat?.isDirectory) {
    const parentRel = toPosix(relative(target.root, parent)) || ".";
    return new ToolError(
      `${target.relative} does not exist (nor does its directory ${parentRel}). Use glob or list to find the right path.`,
    );
  }
  const entries = await ops.readdir(parent).catch(() => []);
  const similar = similarNames(
    basename(target.absolute),
    entries.map((entry) => entry.name),
  );
  const prefix = toPosix(relative(target.root, parent));
  const shown = similar.map((name) => (prefix === "" ? name : `${prefix}/${name}`));
  const hint =
    shown.length > 0 ? ` Did you mean: ${shown.join(", ")}?` : " Use glob or list to find the right path.";
  return new ToolError(`${target.relative} does not exist.${hint}`);
}

/** Names that differ by case, extension or a few characters, closest first (at most 5). */
export function similarNames(wanted: string, names: readonly string[]): string[] {
  const lower = wanted.toLowerCase();
  const stem = stemOf(lower);
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of names) {
    const candidate = name.toLowerCase();
    if (candidate === lower) scored.push({ name, score: 0 });
    else if (stemOf(candidate) === stem) scored.push({ name, score: 1 });
    else {
      const distance = editDistance(lower, candidate);
      if (distance <= Math.max(2, Math.floor(lower.length / 4))) scored.push({ name, score: 1 + distance });
    }
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : 1));
  return scored.slice(0, 5).map((entry) => entry.name);
}

function stemOf(name: string): string {
  const extension = extname(name);
  return extension === "" ? name : name.slice(0, -extension.length);
}
