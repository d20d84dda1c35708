import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import type { Operations } from "../operations.ts";

/** One ignore file in force: its rules and the folder they are relative to. */
interface IgnoreLevel {
  /** The folder of the file, relative to the scope's root, `/`-separated; `""` for the root. */
  base: string;
  rules: Ignore;
}

/**
 * The ignore rules git applies inside one folder, as `git ls-files --exclude-standard` does: the
 * `.gitignore` of that folder and of every folder above it up to the repository root (a deeper file
 * wins over a shallower one; inside a file the last matching line wins), then `.git/info/exclude`.
 * Outside a repository the workspace is the root and only its `.gitignore` files count.
 * Personal excludes (`core.excludesFile`) are left out on purpose, so what an agent sees does not
 * depend on who runs it. Immutable: a walk extends it folder by folder with `withIgnoreFile`.
 */
export interface GitignoreScope {
  /** Absolute path of the root the levels' `base` is relative to (repository root or workspace). */
  readonly root: string;
  /** Deepest first. */
  readonly levels: readonly IgnoreLevel[];
}

/** Adds the `.gitignore` text of folder `base` (relative to the scope's root) as the deepest level. */
export function withIgnoreFile(scope: GitignoreScope, base: string, text: string): GitignoreScope {
  const rules = parseRules(text);
  return rules === undefined ? scope : { root: scope.root, levels: [{ base, rules }, ...scope.levels] };
}

/** Whether git would leave out `path` (relative to the scope's root, `/`-separated). */
export function isGitIgnored(scope: GitignoreScope, path: string, isDirectory: boolean): boolean {
  for (const level of scope.levels) {
    if (level.base !== "" && !path.startsWith(`${level.base}/`)) continue;
    const inLevel = level.base === "" ? path : path.slice(level.base.length + 1);
    const verdict = testPath(level.rules, isDirectory ? `${inLevel}/` : inLevel);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

/**
 * The scope in force in `folder` (inside `workspace`): finds the repository the workspace is in, then
 * reads `.git/info/exclude` and every `.gitignore` from the root down to `folder`. Files it cannot read
 * count as empty, as they do for git.
 */
export async function gitignoreScopeFor(
  ops: Operations,
  workspace: string,
  folder: string,
): Promise<GitignoreScope> {
  const repository = await findRepository(ops, workspace);
  const root = repository?.root ?? workspace;
  let scope: GitignoreScope = { root, levels: [] };
  if (repository !== undefined) {
    const exclude = await readText(ops, join(repository.gitDir, "info", "exclude"));
    if (exclude !== undefined) scope = withIgnoreFile(scope, "", exclude);
  }
  const chain: string[] = [];
  for (let dir = folder; ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dir === root || dirname(dir) === dir) break;
  }
  for (const dir of chain) {
    const text = await readText(ops, join(dir, ".gitignore"));
    if (text !== undefined) scope = withIgnoreFile(scope, relative(root, dir).split(sep).join("/"), text);
  }
  return scope;
}

export interface Repository {
  /** The folder holding `.git`. */
  root: string;
  /** Where `info/exclude` lives: `.git`, or for a linked worktree the main repository's git folder. */
  gitDir: string;
}

/** The nearest folder at or above `start` with a `.git` folder or file (a worktree, a submodule). */
export async function findRepository(ops: Operations, start: string): Promise<Repository | undefined> {
  for (let dir = start; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const stat = await ops.stat(dotGit).catch(() => undefined);
    if (stat?.isDirectory) return { root: dir, gitDir: dotGit };
    if (stat?.isFile) {
      const gitDir = await linkedGitDir(ops, dotGit);
      if (gitDir !== undefined) return { root: dir, gitDir };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** `.git` as a file says `gitdir: <path>`; a linked worktree's git dir names the shared one in `commondir`. */
async function linkedGitDir(ops: Operations, dotGitFile: string): Promise<string | undefined> {
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec((await readText(ops, dotGitFile)) ?? "")?.[1];
  if (pointer === undefined) return undefined;
  const gitDir = resolve(dirname(dotGitFile), pointer);
  const common = (await readText(ops, join(gitDir, "commondir")))?.trim();
  if (common === undefined || common === "") return gitDir;
  return isAbsolute(common) ? common : resolve(gitDir, common);
}

async function readText(ops: Operations, path: string): Promise<string | undefined> {
  // A linked worktree's git dir is named by a pointer that may go through links; reads take real paths.
  const real = await ops.realpath(path).catch(() => undefined);
  if (real === undefined) return undefined;
  const stat = await ops.stat(real).catch(() => undefined);
  if (!stat?.isFile) return undefined;
  return ops.readFile(real).then(
    (buffer) => buffer.toString("utf8"),
    () => undefined,
  );
}

function parseRules(text: string): Ignore | undefined {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "" && !line.startsWith("#"));
  // Case-sensitive, as git is on Linux and as ripgrep matches.
  return lines.length === 0 ? undefined : ignore({ ignorecase: false }).add(lines);
}

const NOT_MATCHED = { ignored: false, unignored: false } as const;

function testPath(rules: Ignore, path: string): { ignored: boolean; unignored: boolean } {
  try {
    return rules.test(path);
  } catch {
    // A name the library refuses as a path (it cannot come from a .gitignore line): no rule applies.
    return NOT_MATCHED;
  }
}
