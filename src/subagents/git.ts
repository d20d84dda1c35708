import { execFile } from "node:child_process";

export class GitError extends Error {
  override readonly name = "GitError";
}

/** Runs git in `cwd` and returns its trimmed stdout; throws `GitError` with git's own message. */
export function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        const detail = String(stderr).trim() || error.message;
        reject(new GitError(`git ${args.join(" ")} failed: ${detail}`));
        return;
      }
      resolve(String(stdout).trim());
    });
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
