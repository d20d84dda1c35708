import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { assertStateDirsInside } from "../state/state-dir.ts";
import { UsageError } from "./errors.ts";

/** The workspace root: `--cwd` (relative to the current directory) or the current directory, as a real path. */
export async function resolveWorkspace(cwdFlag: string | undefined, currentDir: string): Promise<string> {
  const wanted = resolve(currentDir, cwdFlag ?? ".");
  const info = await stat(wanted).catch(() => undefined);
  if (!info) throw new UsageError(`--cwd: ${wanted} does not exist`);
  if (!info.isDirectory()) throw new UsageError(`--cwd: ${wanted} is not a directory`);
  const workspace = await realpath(wanted);
  // Every command refuses a committed .agentry link to elsewhere (a StateDirError, exit 2) before it
  // reads or writes state.
  assertStateDirsInside(workspace);
  return workspace;
}
