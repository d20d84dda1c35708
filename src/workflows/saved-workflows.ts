import { readdir, readFile, stat } from "node:fs/promises";
import { basename, extname, isAbsolute, join, resolve } from "node:path";
import { errorMessage } from "../text/error-message.ts";
import { WorkflowInputError } from "./workflow-errors.ts";
import { parseWorkflowSource, type WorkflowSource } from "./workflow-source.ts";

/** Where saved workflows are read from, highest precedence first (each under the project, then home). */
export const WORKFLOW_FOLDERS = [".agentry/workflows", ".claude/workflows"] as const;

const SCRIPT_EXTENSIONS = [".js", ".mjs", ".ts", ".mts"];

/** A saved workflow file, found by name. */
export interface SavedWorkflow {
  /** Its file's stem (what `agentry workflow run <name>` takes). */
  name: string;
  path: string;
  typescript: boolean;
}

/** A script ready to run, and whether it is TypeScript (kept with the run, for `--resume`). */
export interface LoadedWorkflow {
  source: WorkflowSource;
  typescript: boolean;
}

/** The saved workflows of a project (then the user's), one per name: the first folder's wins. */
export async function listSavedWorkflows(projectDir: string, homeDir: string): Promise<SavedWorkflow[]> {
  const found = new Map<string, SavedWorkflow>();
  for (const root of [projectDir, homeDir]) {
    for (const folder of WORKFLOW_FOLDERS) {
      const dir = join(root, folder);
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const extension = extname(entry.name);
        if (!entry.isFile() || !SCRIPT_EXTENSIONS.includes(extension)) continue;
        const name = basename(entry.name, extension);
        if (!found.has(name)) {
          found.set(name, { name, path: join(dir, entry.name), typescript: extension.endsWith("ts") });
        }
      }
    }
  }
  return [...found.values()];
}

/**
 * A workflow by file path (relative to `cwd`) or by the name of a saved one — its file's stem, or its
 * `meta.name`. Claude Code's `.claude/workflows/` files are read as they are.
 */
export async function loadWorkflow(
  reference: string,
  places: { cwd: string; projectDir: string; homeDir: string },
): Promise<LoadedWorkflow> {
  const path = isAbsolute(reference) ? reference : resolve(places.cwd, reference);
  if (await isFile(path)) return readWorkflow(path, /\.m?ts$/.test(path));
  const saved = await listSavedWorkflows(places.projectDir, places.homeDir);
  const byStem = saved.find((workflow) => workflow.name === reference);
  if (byStem) return readWorkflow(byStem.path, byStem.typescript);
  for (const workflow of saved) {
    const loaded = await readWorkflow(workflow.path, workflow.typescript).catch(() => undefined);
    if (loaded?.source.meta.name === reference) return loaded;
  }
  const names = saved.map((workflow) => workflow.name);
  throw new WorkflowInputError(
    `No workflow file or saved workflow named "${reference}". ${
      names.length > 0
        ? `Saved workflows: ${names.join(", ")}.`
        : `Save one as ${WORKFLOW_FOLDERS.map((folder) => `${folder}/<name>.js`).join(" or ")}.`
    }`,
  );
}

async function readWorkflow(path: string, typescript: boolean): Promise<LoadedWorkflow> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new WorkflowInputError(`Cannot read the workflow ${path}: ${errorMessage(error)}`);
  }
  return { source: await parseWorkflowSource(text, path, { typescript }), typescript };
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() === true;
}

/** What a script's `workflow(name, args)` finds: the saved workflows of these places, by name. */
export function savedWorkflowLoader(places: {
  cwd: string;
  projectDir: string;
  homeDir: string;
}): (name: string) => Promise<WorkflowSource> {
  return async (name) => (await loadWorkflow(name, places)).source;
}
