import { execFile } from "node:child_process";
import { AgentryError } from "../errors/agentry-error.ts";

export class GitError extends AgentryError {
  override readonly name = "GitError";
  readonly kind = "system";
}

/**
 * agentry's own git commands run outside the sandbox, in repositories a model may have worked in: no
 * hook and no fsmonitor (a command git would run from the repository's config) may run through them.
 */
const SAFE_CONFIG = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null"];

/** Runs git in `cwd` and returns its trimmed stdout; throws `GitError` with git's own message. */
export function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...SAFE_CONFIG, ...args],
      { cwd, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const detail = String(stderr).trim() || error.message;
          reject(new GitError(`git ${args.join(" ")} failed: ${detail}`));
          return;
        }
        resolve(String(stdout).trim());
      },
    );
  });
}

/** True when `git` succeeds, false when it fails for any reason. */
export async function gitSucceeds(cwd: string, args: string[]): Promise<boolean> {
  try {
    await git(cwd, args);
    return true;
  } catch {
    return false;
  }
}
