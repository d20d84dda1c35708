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
 * Creates `dir` (under `.agentry/`) and, on first use, `.agentry/.gitignore` containing `*`, so the
 * state never shows up in the user's `git status`.
 */
export function ensureStateDir(workspace: string, dir: string): void {
  const root = stateDir(workspace);
  mkdirSync(dir, { recursive: true });
  const gitignore = join(root, ".gitignore");
  if (!existsSync(gitignore)) writeFileSync(gitignore, "*\n");
}

/** Appends one whole line with a single synchronous write, so a killed process leaves only complete lines. */
export function appendLine(path: string, line: string): void {
  appendFileSync(path, `${line}\n`);
}
