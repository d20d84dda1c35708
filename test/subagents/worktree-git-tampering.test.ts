import { existsSync } from "node:fs";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { prepareChildWorkspace } from "../../src/subagents/child/child-workspace.ts";
import { tempDir } from "../support/temp-dir.ts";
import { git, gitRepo } from "./support/git-repo.ts";

// Issue 21: when a worktree child ends, agentry runs git there itself (status, add -A, commit), outside
// any sandbox. Whatever the child did to its worktree — here as a command outside the sandbox would
// (bypass, or an approved `outside_sandbox`) — none of those calls may run a program.

const home = process.env.HOME;
afterEach(() => {
  process.env.HOME = home;
});

/** A config that runs `touch marker` on the next `git status` (fsmonitor) or `git add` (filter x). */
const planted = (marker: string) =>
  `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ${marker}; false"\n[filter "x"]\n\tclean = "touch ${marker}; cat"\n`;

async function worktreeChild(ws: string, taskId: string) {
  return prepareChildWorkspace({ mode: "worktree", parentWorkspace: ws, agentName: "builder", taskId });
}

test("a worktree whose commondir a child redirected is refused when it ends: no git runs there, and it says why", async () => {
  const ws = await gitRepo();
  const marker = join(await tempDir(), "ran");
  const child = await worktreeChild(ws, "sub-redirect");
  const gitDir = join(ws, ".git", "worktrees", "sub-redirect");
  const ev = join(child.path, "ev");
  await mkdir(ev);
  await cp(join(ws, ".git", "objects"), join(ev, "objects"), { recursive: true });
  await cp(join(ws, ".git", "refs"), join(ev, "refs"), { recursive: true });
  await writeFile(join(ev, "config"), planted(marker));
  await writeFile(join(gitDir, "commondir"), `${ev}\n`);
  await writeFile(join(child.path, ".gitattributes"), "* filter=x\n");
  await writeFile(join(child.path, "work.txt"), "work\n");

  await expect(child.finish()).rejects.toThrow(
    `agentry ran no git in ${join(ws, ".agentry", "worktrees", "sub-redirect")}: the worktree's ${join(gitDir, "commondir")} sends git to ${ev} instead of its repository ${join(ws, ".git")}`,
  );
  expect(existsSync(marker)).toBe(false);
  expect(await readFile(join(child.path, "work.txt"), "utf8")).toBe("work\n");
});

test("a .gitattributes naming a filter of the repository's or the user's config runs neither when agentry commits the work", async () => {
  const ws = await gitRepo();
  const markers = await tempDir();
  git(ws, "config", "filter.x.clean", `touch ${join(markers, "repository")}; cat`);
  git(ws, "config", "filter.x.process", `touch ${join(markers, "repository-process")}`);
  const userHome = await tempDir();
  await writeFile(
    join(userHome, ".gitconfig"),
    `[filter "y"]\n\tclean = "touch ${join(markers, "user")}; cat"\n[core]\n\tfsmonitor = "touch ${join(markers, "fsmonitor")}; false"\n`,
  );
  process.env.HOME = userHome;
  const child = await worktreeChild(ws, "sub-filters");
  await writeFile(join(child.path, ".gitattributes"), "x.txt filter=x\ny.txt filter=y\n");
  await writeFile(join(child.path, "x.txt"), "x\n");
  await writeFile(join(child.path, "y.txt"), "y\n");

  const report = await child.finish();

  expect(report.branch).toBe("agentry/builder-sub-filters");
  expect(git(ws, "show", "agentry/builder-sub-filters:x.txt")).toBe("x");
  expect(git(ws, "show", "agentry/builder-sub-filters:y.txt")).toBe("y");
  expect(existsSync(join(markers, "repository"))).toBe(false);
  expect(existsSync(join(markers, "repository-process"))).toBe(false);
  expect(existsSync(join(markers, "user"))).toBe(false);
  expect(existsSync(join(markers, "fsmonitor"))).toBe(false);
});

test("a repository whose main .git got a commondir is refused before a worktree child is made", async () => {
  const ws = await gitRepo();
  const ev = join(ws, ".git", "ev");
  await mkdir(ev);
  await writeFile(join(ws, ".git", "commondir"), "ev\n");
  await expect(worktreeChild(ws, "sub-main")).rejects.toThrow(
    `${join(ws, ".git", "commondir")} sends git to ${ev}, which a repository's own .git never does`,
  );
  expect(existsSync(join(ws, ".agentry", "worktrees", "sub-main"))).toBe(false);
});
