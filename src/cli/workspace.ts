import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { assertStateDirsInside, StateDirError } from "../state/state-dir.ts";
import { UsageError } from "./errors.ts";

/** The workspace root: `--cwd` (relative to the current directory) or the current directory, as a real path. */
export async function resolveWorkspace(cwdFlag: string | undefined, currentDir: string): Promise<string> {
  const wanted = resolve(currentDir, cwdFlag ?? ".");
  const info = await stat(wanted).catch(() => undefined);
  if (!info) throw new UsageError(`--cwd: ${wanted} does not exist`);
  if (!info.isDirectory()) throw new UsageError(`--cwd: ${wanted} is not a directory`);
  const workspace = await realpath(wanted);
  try {
    // Every command refuses a committed .agentry link to elsewhere before it reads or writes state.
    assertStateDirsInside(workspace);
  } catch (error) {
    if (error instanceof StateDirError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
  return workspace;
}
