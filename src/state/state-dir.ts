import {
  closeSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  rmSync,
  type Stats,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { AgentryError } from "../errors/agentry-error.ts";
import { diskFullError } from "./disk-full.ts";
import { orUndefined } from "./or-undefined.ts";

/** `<workspace>/.agentry`: all of agentry's state in a workspace. */
export function stateDir(workspace: string): string {
  return join(workspace, ".agentry");
}

export function sessionsDir(workspace: string): string {
  return join(stateDir(workspace), "sessions");
}

export function sessionPath(workspace: string, sessionId: string): string {
  return join(sessionsDir(workspace), `${sessionId}.jsonl`);
}

export function toolOutputDir(workspace: string): string {
  return join(stateDir(workspace), "tool-output");
}

/**
 * What `.agentry/.gitignore` holds: all state is ignored (sessions, task records, tool output,
 * worktrees, isolated workspaces), but a project's own agent definitions and config stay committable.
 * See docs/decisions/0002-agentry-gitignore.md.
 */
export const STATE_GITIGNORE = [
  "# agentry's state: ignored. Agent definitions (agents/**/*.md), saved workflows (workflows/) and config.json can be committed.",
  "/*",
  "!/.gitignore",
  "!/config.json",
  "!/agents/",
  "/agents/*/tasks/",
  "/agents/*/workspace/",
  "!/workflows/",
  "",
].join("\n");

/** A state folder that would lead outside the workspace: the user must remove the link. */
export class StateDirError extends AgentryError {
  override readonly name = "StateDirError";
  readonly kind = "user";
}

/**
 * Creates `dir` (under `.agentry/`) and, on first use, `.agentry/.gitignore`, so state never shows in
 * `git status`. Throws `StateDirError` when `dir` would resolve outside the workspace (see
 * `assertStateInside`), before anything is created.
 */
export function ensureStateDir(workspace: string, dir: string): void {
  assertStateInside(workspace, dir);
  mkdirSync(dir, { recursive: true });
  const gitignore = join(stateDir(workspace), ".gitignore");
  try {
    // "wx": never through a link planted as .gitignore (O_EXCL does not follow it), never over a file.
    writeFileSync(gitignore, STATE_GITIGNORE, { flag: "wx" });
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "EEXIST") return;
    const full = diskFullError(error, gitignore);
    // Created but not written (the disk is full): an empty .gitignore would stay, ignoring nothing.
    if (full !== undefined) rmSync(gitignore, { force: true });
    throw full ?? error;
  }
}

/**
 * Refuses a state folder whose real location is outside the workspace. A repository can commit
 * `.agentry` (or `.agentry/sessions`, `.agentry/agents/<name>/tasks` …) as a symbolic link to any
 * folder of the cloner's machine; agentry would then write its transcripts and records there. A link
 * that stays inside the workspace is fine. Only the part of `dir` that exists is checked: what
 * `mkdir` creates below it cannot be a link.
 */
export function assertStateInside(workspace: string, dir: string): void {
  const root = realpathSync(workspace);
  let existing = dir;
  while (lstatOrUndefined(existing) === undefined) {
    const parent = dirname(existing);
    if (parent === existing) return;
    existing = parent;
  }
  // Undefined for a dangling link: where it leads cannot be checked.
  const real = orUndefined(() => realpathSync(existing));
  if (real !== undefined && isInside(real, root)) return;
  const link = firstLink(workspace, existing);
  const name = relative(workspace, link ?? existing);
  const what =
    link === undefined
      ? `${name} resolves to ${real ?? "nothing"}`
      : `${name} is a symbolic link to ${readlinkSync(link)} ${real === undefined ? "that leads nowhere (a dangling link)" : `(${real})`}`;
  throw new StateDirError(
    `${what}, outside the workspace. agentry keeps its state (sessions, task records, tool output) inside the workspace ${workspace}, so it will not write there. Remove the link (a cloned repository may have brought it: git ls-files -s ${name}) and run again; agentry creates the folder itself.`,
  );
}

/**
 * `assertStateInside` for `.agentry` and the state folders every run uses (sessions, tool output,
 * worktrees): a command can refuse a planted link before it reads or writes anything.
 */
export function assertStateDirsInside(workspace: string): void {
  for (const dir of [
    sessionsDir(workspace),
    toolOutputDir(workspace),
    join(stateDir(workspace), "worktrees"),
  ])
    assertStateInside(workspace, dir);
}

/** The first path component below `workspace` on the way to `path` that is a symbolic link. */
function firstLink(workspace: string, path: string): string | undefined {
  let current = workspace;
  for (const part of relative(workspace, path).split(sep)) {
    current = join(current, part);
    if (lstatOrUndefined(current)?.isSymbolicLink()) return current;
  }
  return undefined;
}

function lstatOrUndefined(path: string): Stats | undefined {
  return orUndefined(() => lstatSync(path));
}

function isInside(path: string, root: string): boolean {
  const fromRoot = relative(root, path);
  return fromRoot !== ".." && !fromRoot.startsWith(`..${sep}`) && !isAbsolute(fromRoot);
}

/**
 * Appends one whole line, or nothing: a write that fails part-way (the disk is full) is cut back to
 * where the file ended, so no reader ever meets half a line of it; a full disk is a `DiskFullError`
 * naming the file. A file whose last line was torn before (a writer killed mid-write) gets that line
 * ended first, so the new one stands on its own. The line goes in one synchronous write, so a killed
 * process leaves complete lines (at worst a torn last one, which readers skip with a warning).
 */
export function appendLine(path: string, line: string): void {
  const fd = openSync(path, "a+");
  try {
    const before = fstatSync(fd).size;
    const data = Buffer.from(`${endsTorn(fd, before) ? "\n" : ""}${line}\n`);
    let written = 0;
    try {
      while (written < data.length) written += writeSync(fd, data, written);
    } catch (error) {
      if (written > 0) cutBack(fd, before);
      throw diskFullError(error, path) ?? error;
    }
  } finally {
    closeSync(fd);
  }
}

/** Whether the file of `size` bytes ends in the middle of a line. */
function endsTorn(fd: number, size: number): boolean {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

function cutBack(fd: number, size: number): void {
  try {
    ftruncateSync(fd, size);
  } catch {
    // Then the half line stays, unterminated: readers skip it, and the next append starts a new line.
  }
}
