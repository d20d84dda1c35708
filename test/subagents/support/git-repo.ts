import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempWorkspace } from "./subagent-harness.ts";

/** Runs git in `cwd` with a test identity and returns its trimmed output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();
}

/** A temp workspace that is a git repository on `main` with one commit (a README). */
export async function gitRepo(): Promise<string> {
  const ws = await tempWorkspace();
  git(ws, "init", "-q", "-b", "main");
  await writeFile(join(ws, "README.md"), "# project\n");
  git(ws, "add", "-A");
  git(ws, "commit", "-q", "-m", "initial");
  return ws;
}
