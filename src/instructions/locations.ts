import { stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import type { InstructionScope } from "./instruction-file.ts";
import { isInside } from "./read-policy.ts";

/** A place an instruction file may be: the first of `paths` that holds text is the one read. */
export interface Location {
  paths: string[];
  scope: InstructionScope;
  /** Its `@path` imports are read (Claude Code's files: CLAUDE.md and what they import). */
  imports: boolean;
}

export type Env = Record<string, string | undefined>;

/** The user's folders that hold instruction files, besides the home folder itself. */
export function userFolders(env: Env, home: string): { config: string; codex: string } {
  const xdg = env.XDG_CONFIG_HOME;
  const codex = env.CODEX_HOME;
  return {
    config: xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, ".config"),
    codex: codex !== undefined && isAbsolute(codex) ? codex : join(home, ".codex"),
  };
}

/**
 * The user's instruction files, in the prompt's order: agentry's, Claude Code's, Codex's (its
 * `AGENTS.override.md` instead of `AGENTS.md` when there is one), OpenCode's.
 */
export function userLocations(env: Env, home: string): Location[] {
  const { config, codex } = userFolders(env, home);
  const user = (paths: string[], imports = false): Location => ({ paths, scope: "user", imports });
  return [
    user([join(config, "agentry", "AGENTS.md")]),
    user([join(home, ".claude", "CLAUDE.md")], true),
    user([join(codex, "AGENTS.override.md"), join(codex, "AGENTS.md")]),
    user([join(config, "opencode", "AGENTS.md")]),
  ];
}

/** A folder's instruction files, in the prompt's order. */
export function folderLocations(folder: string): Location[] {
  const project = (paths: string[], imports: boolean): Location => ({ paths, scope: "project", imports });
  return [
    // Codex reads AGENTS.override.md instead of AGENTS.md in the folder that has one.
    project([join(folder, "AGENTS.override.md"), join(folder, "AGENTS.md")], false),
    project([join(folder, "CLAUDE.md")], true),
    project([join(folder, ".claude", "CLAUDE.md")], true),
    project([join(folder, "CLAUDE.local.md")], true),
  ];
}

/** The folders from the project's root down to the workspace, the root first. */
export function foldersDown(projectRoot: string, workspace: string): string[] {
  const folders = [workspace];
  for (let folder = workspace; folder !== projectRoot; ) {
    const parent = dirname(folder);
    if (parent === folder) break;
    folders.unshift(parent);
    folder = parent;
  }
  return folders;
}

/**
 * The repository's top folder (the nearest folder up from the workspace holding `.git`: a folder, or a
 * file in worktrees and submodules), or the workspace itself outside git.
 */
export async function findProjectRoot(workspace: string): Promise<string> {
  for (let folder = workspace; ; ) {
    if (await stat(join(folder, ".git")).catch(() => undefined)) return folder;
    const parent = dirname(folder);
    if (parent === folder) return workspace;
    folder = parent;
  }
}

/** How messages name a file: relative to the workspace (`sub/AGENTS.md`, `../AGENTS.md`), `~/…`, or absolute. */
export function labelOf(
  path: string,
  context: { workspace: string; projectRoot: string; home: string },
): string {
  const posix = (text: string) => text.split(sep).join("/");
  if (isInside(path, context.projectRoot)) return posix(relative(context.workspace, path)) || ".";
  if (isInside(path, context.home)) return `~/${posix(relative(context.home, path))}`;
  return path;
}
