import { FileCollector, type FileToRead } from "./collect-files.ts";
import type { InstructionContext, InstructionScope, LoadedInstructions } from "./instruction-file.ts";
import { expandList, type InstructionList, scopeOf } from "./instruction-lists.ts";
import { instructionsSection } from "./instructions-section.ts";
import {
  type Env,
  findProjectRoot,
  folderLocations,
  foldersDown,
  type Location,
  labelOf,
  userFolders,
  userLocations,
} from "./locations.ts";
import { realPathOf } from "./read-text.ts";
import { capFiles, INSTRUCTIONS_MAX_BYTES } from "./size-cap.ts";

export interface LoadInstructionsOptions {
  /** The working folder. */
  workspace: string;
  /** The home folder (`$HOME`). */
  home: string;
  /** `XDG_CONFIG_HOME` and `CODEX_HOME` say where the user's agentry, OpenCode and Codex files are. */
  env: Env;
  /** The user trusts the folder: its files may import Markdown files from the home folder. */
  trusted: boolean;
  /** `instructions` lists of config files: agentry's own, and the peers' (`opencode.json`). */
  lists?: readonly InstructionList[];
  /** The cap of the whole (default `INSTRUCTIONS_MAX_BYTES`, 32 KiB). */
  maxBytes?: number;
}

/**
 * The instruction files of a run, in the prompt's order (docs/instructions.md):
 * 1. the user's: `$XDG_CONFIG_HOME/agentry/AGENTS.md`, `~/.claude/CLAUDE.md`, `~/.codex/AGENTS.md`,
 *    `~/.config/opencode/AGENTS.md`, then the user's config files' `instructions`;
 * 2. the project's, from the repository's top folder down to the workspace, in each folder `AGENTS.md`,
 *    `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md`; then the project's config files' `instructions`.
 * A CLAUDE.md's `@path` imports follow it. Each real file is read once; the whole is capped.
 * Instructions are prompts, not code: they apply in an untrusted folder too, and reading stays
 * confined (`read-policy.ts`).
 */
export async function loadInstructions(options: LoadInstructionsOptions): Promise<LoadedInstructions> {
  const maxBytes = options.maxBytes ?? INSTRUCTIONS_MAX_BYTES;
  const workspace = (await realPathOf(options.workspace)) ?? options.workspace;
  const home = (await realPathOf(options.home)) ?? options.home;
  const folders = userFolders(options.env, options.home);
  const userRoots = (await Promise.all([folders.config, folders.codex].map(realPathOf))).filter(
    (root): root is string => root !== undefined,
  );
  const context: Omit<InstructionContext, "loaded"> = {
    workspace,
    projectRoot: await findProjectRoot(workspace),
    home,
    userRoots,
    trusted: options.trusted,
  };
  const collector = new FileCollector(context, maxBytes);
  const lists = options.lists ?? [];
  const diagnostics: string[] = [];
  const locations = [
    ...userLocations(options.env, options.home),
    ...foldersDown(context.projectRoot, workspace).flatMap(folderLocations),
  ];
  const found = await resolveLocations(locations, collector, diagnostics);
  const userCount = found.filter((file) => file.scope === "user").length;
  for (const file of found.slice(0, userCount)) await collector.add(file);
  await addLists(lists, "user", collector, diagnostics);
  for (const file of found.slice(userCount)) await collector.add(file);
  await addLists(lists, "project", collector, diagnostics);

  const capped = capFiles(collector.files, maxBytes);
  return {
    files: capped.files,
    section: instructionsSection(capped.files),
    diagnostics: [...diagnostics, ...collector.diagnostics, ...capped.diagnostics],
    context: { ...context, loaded: new Set(collector.seen) },
  };
}

/**
 * Each location's file, when it has one its scope may read, in order. A file reached by several
 * locations (`AGENTS.md` a link to `CLAUDE.md`) is read once, at the first, and its imports are read
 * when any of them reads imports.
 */
async function resolveLocations(
  locations: readonly Location[],
  collector: FileCollector,
  diagnostics: string[],
): Promise<FileToRead[]> {
  const found: FileToRead[] = [];
  for (const location of locations) {
    for (const named of location.paths) {
      const real = await realPathOf(named);
      if (real === undefined) continue;
      const why = collector.refusal(real, location.scope);
      if (why !== undefined) {
        diagnostics.push(`${labelOf(named, collector.context)} was not read: it leads to ${real}, ${why}`);
        break;
      }
      const earlier = found.find((file) => file.path === real);
      if (earlier === undefined)
        found.push({
          path: real,
          named,
          scope: location.scope,
          imports: location.imports,
          origin: { kind: "location" },
        });
      else earlier.imports ||= location.imports;
      break;
    }
  }
  return found;
}

async function addLists(
  lists: readonly InstructionList[],
  scope: InstructionScope,
  collector: FileCollector,
  diagnostics: string[],
): Promise<void> {
  for (const list of lists) {
    if ((await scopeOf(list, collector.context.projectRoot)) !== scope) continue;
    const expanded = await expandList({ ...list, scope }, collector.context);
    diagnostics.push(...expanded.diagnostics);
    for (const path of expanded.paths)
      await collector.add({
        path,
        named: path,
        scope,
        imports: false,
        origin: { kind: "list", source: list.source },
      });
  }
}
