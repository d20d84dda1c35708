import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { stateDir } from "../../state/state-dir.ts";
import { SAFE_ID } from "../safe-id.ts";
import { TaskStoreError } from "../task-errors.ts";

/**
 * Where the workspace backend keeps records:
 * `<workspace>/.agentry/agents/<parentAgentId>/tasks/<parentSessionId>.json`. The `agents/` folder is
 * shared with agent definitions and isolated workspaces, so scanning looks only at `<id>/tasks/*.json`.
 */
export function agentsDir(workspace: string): string {
  return join(stateDir(workspace), "agents");
}

export function taskFilePath(workspace: string, parentAgentId: string, parentSessionId: string): string {
  checkId("parentAgentId", parentAgentId);
  checkId("parentSessionId", parentSessionId);
  return join(agentsDir(workspace), parentAgentId, "tasks", `${parentSessionId}.json`);
}

export function checkId(what: string, value: string): void {
  if (!SAFE_ID.test(value)) {
    throw new TaskStoreError(
      `Invalid ${what} ${JSON.stringify(value)}: use letters, digits, ".", "_" and "-" only ` +
        "(at most 128 characters, not starting with a dot or dash).",
    );
  }
}

/** The task files in scope, sorted by path; directories that do not exist yet count as empty. */
export async function findTaskFiles(
  workspace: string,
  scope: { parentAgentId?: string | undefined; parentSessionId?: string | undefined },
): Promise<string[]> {
  if (scope.parentAgentId !== undefined) checkId("parentAgentId", scope.parentAgentId);
  if (scope.parentSessionId !== undefined) checkId("parentSessionId", scope.parentSessionId);
  const root = agentsDir(workspace);
  const agents =
    scope.parentAgentId !== undefined
      ? [scope.parentAgentId]
      : (await entries(root)).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const files: string[] = [];
  for (const agent of agents) {
    const dir = join(root, agent, "tasks");
    for (const entry of await entries(dir)) {
      if (!entry.isFile() || !isTaskFileName(entry.name)) continue;
      if (scope.parentSessionId !== undefined && entry.name !== `${scope.parentSessionId}.json`) continue;
      files.push(join(dir, entry.name));
    }
  }
  return files.sort();
}

/** Skips temp files (`.x.json.<pid>.tmp`), locks (`x.json.lock`) and anything not named like a session. */
function isTaskFileName(name: string): boolean {
  return name.endsWith(".json") && SAFE_ID.test(name.slice(0, -".json".length));
}

async function entries(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw error;
  }
}
