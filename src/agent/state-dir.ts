import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

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
  "# agentry's state: ignored. Agent definitions (agents/**/*.md) and config.json can be committed.",
  "/*",
  "!/.gitignore",
  "!/config.json",
  "!/agents/",
  "/agents/*/tasks/",
  "/agents/*/workspace/",
  "",
].join("\n");

/** Creates `dir` (under `.agentry/`) and, on first use, `.agentry/.gitignore`, so state never shows in `git status`. */
export function ensureStateDir(workspace: string, dir: string): void {
  const root = stateDir(workspace);
  mkdirSync(dir, { recursive: true });
  const gitignore = join(root, ".gitignore");
  if (!existsSync(gitignore)) writeFileSync(gitignore, STATE_GITIGNORE);
}

/**
 * Appends one whole line with a single synchronous write, so a killed process leaves complete lines
 * (at worst a torn last one, when SIGKILL cuts a large write short; readers skip it with a warning).
 */
export function appendLine(path: string, line: string): void {
  appendFileSync(path, `${line}\n`);
}
