import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import {
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  symlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type GitDirView, stageGitDir } from "../../src/sandbox/git-dir-view.ts";
import { tempDir } from "../support/temp-dir.ts";

// What a sandboxed command's git may write back into the real .git (`git-dir-view.ts`), driven
// directly: the test plays the command by writing into the staging folder (what bwrap mounts at .git)
// and plays a git running outside by writing the repository's .git meanwhile.

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

/** Git on the repository's objects and refs, but with the index `index` (a command's copy). */
const gitWithIndex = (gitDir: string, index: string, input: string, ...args: string[]) =>
  execFileSync("git", ["-c", "core.fsmonitor=false", "--git-dir", gitDir, ...args], {
    env: { PATH: process.env.PATH, GIT_INDEX_FILE: index },
    input,
    encoding: "utf8",
  });

/** A repository with one commit of a dozen files (so `git ls-files` says more than a few bytes). */
async function repository(): Promise<{ work: string; gitDir: string }> {
  const work = await tempDir("agentry-view-repo-");
  for (let i = 0; i < 12; i++) await writeFile(join(work, `file-${i}.txt`), `${i}\n`);
  git(work, "init", "-q", "-b", "main");
  git(work, "add", ".");
  git(work, "commit", "-qm", "init");
  return { work, gitDir: join(work, ".git") };
}

/** What bwrap does for the command, by symlinks: the real folders and read-only files show through. */
async function mount(view: GitDirView): Promise<void> {
  for (const from of [...view.writable, ...view.readOnly]) {
    const at = join(view.staging, basename(from));
    await rm(at, { recursive: true });
    await symlink(from, at);
  }
}

const read = (path: string) => readFile(path, "utf8");

/** The command's git adds a submodule (a gitlink) at `path` to its copy of the index. */
const addGitlink = (gitDir: string, view: GitDirView, path: string) =>
  gitWithIndex(
    gitDir,
    join(view.staging, "index"),
    "",
    "update-index",
    "--add",
    "--cacheinfo",
    `160000,${"4".repeat(40)},${path}`,
  );

// Staging folders go to TMPDIR: a fresh one per test shows what is made and left there.
let staged: string;
let savedTmp: string | undefined;
beforeEach(async () => {
  staged = await tempDir("agentry-view-tmp-");
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = staged;
});
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
});

describe("stageGitDir: the command's view of a git folder", () => {
  it("folders git writes are mounted read-write, every other entry read-only, a symlink made again, a FIFO left out", async () => {
    const { gitDir } = await repository();
    await symlink("../elsewhere", join(gitDir, "link"));
    execFileSync("mkfifo", [join(gitDir, "fifo")]);
    const { view, finish } = await stageGitDir(gitDir);

    expect(dirname(view.staging)).toBe(staged);
    expect(view.path).toBe(gitDir);
    expect(view.writable.sort()).toEqual(["logs", "objects", "refs"].map((name) => join(gitDir, name)));
    expect(view.readOnly).toContain(join(gitDir, "config"));
    expect(view.readOnly).toContain(join(gitDir, "hooks"));
    expect(view.readOnly).toContain(join(gitDir, "description"));
    for (const name of ["link", "fifo", "HEAD", "index"])
      expect(view.readOnly).not.toContain(join(gitDir, name));
    expect(await readlink(join(view.staging, "link"))).toBe("../elsewhere");
    expect(existsSync(join(view.staging, "fifo"))).toBe(false);
    expect(await read(join(view.staging, "HEAD"))).toBe(await read(join(gitDir, "HEAD")));

    expect(await finish()).toEqual([]);
    expect(existsSync(view.staging)).toBe(false);
  });

  it("a git folder that cannot be read is refused, and no staging folder is left behind", async () => {
    const { work } = await repository();
    await expect(stageGitDir(join(work, "no-such-git-dir"))).rejects.toThrow(/ENOENT/);
    expect((await readdir(staged)).filter((name) => name.startsWith("agentry-git-"))).toEqual([]);
  });
});

describe("finish: what goes back into the repository's .git", () => {
  it("a commit on a new branch: its index and HEAD go back, nothing is reported, the staging goes away", async () => {
    const { work, gitDir } = await repository();
    const { view, finish } = await stageGitDir(gitDir);
    await mount(view);
    await writeFile(join(work, "new.txt"), "new\n");
    const inView = (...args: string[]) => git(work, "--git-dir", view.staging, "--work-tree", work, ...args);
    inView("checkout", "-q", "-b", "side");
    inView("add", "new.txt");
    inView("commit", "-qm", "two");

    expect(await finish()).toEqual([]);
    expect(existsSync(view.staging)).toBe(false);
    expect(git(work, "branch", "--show-current")).toBe("side\n");
    expect(git(work, "log", "--format=%s", "-1")).toBe("two\n");
    expect(git(work, "status", "--porcelain")).toBe("");
  });

  it("a file git makes during the command goes back; a name git does not write (commondir) does not", async () => {
    const { gitDir } = await repository();
    const { view, finish } = await stageGitDir(gitDir);
    await writeFile(join(view.staging, "MERGE_MSG"), "Merge branch 'side'\n");
    await writeFile(join(view.staging, "commondir"), "../evil\n");

    expect(await finish()).toEqual([]);
    expect(await read(join(gitDir, "MERGE_MSG"))).toBe("Merge branch 'side'\n");
    expect(existsSync(join(gitDir, "commondir"))).toBe(false);
  });

  it("a file the command removed (MERGE_HEAD after the merge commit) is removed, but HEAD never", async () => {
    const { gitDir } = await repository();
    const head = await read(join(gitDir, "HEAD"));
    await writeFile(join(gitDir, "MERGE_HEAD"), `${"a".repeat(40)}\n`);
    const { view, finish } = await stageGitDir(gitDir);
    await rm(join(view.staging, "MERGE_HEAD"));
    await rm(join(view.staging, "HEAD"));

    expect(await finish()).toEqual([]);
    expect(existsSync(join(gitDir, "MERGE_HEAD"))).toBe(false);
    expect(await read(join(gitDir, "HEAD"))).toBe(head);
  });

  it("a symlink or a folder in place of a file stays the command's: a secret it points at is not copied into .git", async () => {
    const { work, gitDir } = await repository();
    const secret = join(dirname(work), `${basename(work)}-secret`);
    await writeFile(secret, "ssh-secret-7f3a\n");
    const head = await read(join(gitDir, "HEAD"));
    await writeFile(join(gitDir, "ORIG_HEAD"), `${"b".repeat(40)}\n`);
    const { view, finish } = await stageGitDir(gitDir);
    await rm(join(view.staging, "HEAD"));
    await symlink(secret, join(view.staging, "HEAD"));
    await rm(join(view.staging, "ORIG_HEAD"));
    await mkdir(join(view.staging, "ORIG_HEAD"));
    await symlink(secret, join(view.staging, "FETCH_HEAD"));

    expect(await finish()).toEqual([]);
    expect(await read(join(gitDir, "HEAD"))).toBe(head);
    expect(await read(join(gitDir, "ORIG_HEAD"))).toBe(`${"b".repeat(40)}\n`);
    expect(existsSync(join(gitDir, "FETCH_HEAD"))).toBe(false);
  });

  it("a file the repository changed meanwhile keeps the repository's version and is reported; one the command left alone is not", async () => {
    const { gitDir } = await repository();
    for (const name of ["ORIG_HEAD", "FETCH_HEAD", "MERGE_MSG"])
      await writeFile(join(gitDir, name), "before\n");
    const { view, finish } = await stageGitDir(gitDir);
    // The command changes ORIG_HEAD and MERGE_MSG and makes SQUASH_MSG; it leaves FETCH_HEAD alone.
    for (const name of ["ORIG_HEAD", "MERGE_MSG", "SQUASH_MSG"])
      await writeFile(join(view.staging, name), "command\n");
    // Meanwhile a git outside rewrites ORIG_HEAD and FETCH_HEAD (by a rename), removes MERGE_MSG and makes SQUASH_MSG.
    for (const name of ["ORIG_HEAD", "FETCH_HEAD", "SQUASH_MSG"]) {
      await writeFile(join(gitDir, `${name}.lock`), "outside\n");
      await rename(join(gitDir, `${name}.lock`), join(gitDir, name));
    }
    await rm(join(gitDir, "MERGE_MSG"));

    expect((await finish()).sort()).toEqual(["MERGE_MSG", "ORIG_HEAD", "SQUASH_MSG"]);
    for (const name of ["ORIG_HEAD", "FETCH_HEAD", "SQUASH_MSG"])
      expect(await read(join(gitDir, name))).toBe("outside\n");
    expect(existsSync(join(gitDir, "MERGE_MSG"))).toBe(false);
  });

  it("a change that keeps the file's size and sets its time back still goes back", async () => {
    const { gitDir } = await repository();
    await writeFile(join(gitDir, "ORIG_HEAD"), `${"c".repeat(40)}\n`);
    const { view, finish } = await stageGitDir(gitDir);
    const copy = join(view.staging, "ORIG_HEAD");
    const { atime, mtime } = await lstat(copy);
    await writeFile(copy, `${"d".repeat(40)}\n`);
    await utimes(copy, atime, mtime);

    expect(await finish()).toEqual([]);
    expect(await read(join(gitDir, "ORIG_HEAD"))).toBe(`${"d".repeat(40)}\n`);
  });

  it("a file whose lock a git outside holds is not replaced, and that git's lock is left", async () => {
    const { gitDir } = await repository();
    await writeFile(join(gitDir, "ORIG_HEAD"), "before\n");
    const { view, finish } = await stageGitDir(gitDir);
    await writeFile(join(view.staging, "ORIG_HEAD"), "command\n");
    await writeFile(join(gitDir, "ORIG_HEAD.lock"), "outside\n");

    expect(await finish()).toEqual(["ORIG_HEAD"]);
    expect(await read(join(gitDir, "ORIG_HEAD"))).toBe("before\n");
    expect(await read(join(gitDir, "ORIG_HEAD.lock"))).toBe("outside\n");
  });
});

describe("finish: the command's index and submodules", () => {
  /** A repository whose index and last commit record a submodule `sub` (a gitlink) at commit `1…1`. */
  async function withSubmodule(): Promise<{ work: string; gitDir: string }> {
    const repo = await repository();
    git(repo.work, "update-index", "--add", "--cacheinfo", `160000,${"1".repeat(40)},sub`);
    git(repo.work, "commit", "-qm", "sub");
    return repo;
  }

  it("an index that cannot be read is not put back (fail closed)", async () => {
    const { work, gitDir } = await repository();
    const { view, finish } = await stageGitDir(gitDir);
    await writeFile(join(view.staging, "index"), "not an index");

    expect(await finish()).toEqual(["index"]);
    expect(git(work, "status", "--porcelain")).toBe("");
  });

  it("when the repository's own index cannot be read, the command's is not put back either (fail closed)", async () => {
    const { gitDir } = await repository();
    await writeFile(join(gitDir, "index"), "not an index");
    const { view, finish } = await stageGitDir(gitDir);
    gitWithIndex(gitDir, join(view.staging, "index"), "", "read-tree", "HEAD");

    expect(await finish()).toEqual(["index"]);
    expect(await read(join(gitDir, "index"))).toBe("not an index");
  });

  it("an index that moves an existing submodule to other commits (a conflict on it) goes back", async () => {
    const { work, gitDir } = await withSubmodule();
    const { view, finish } = await stageGitDir(gitDir);
    gitWithIndex(
      gitDir,
      join(view.staging, "index"),
      [
        `0 ${"0".repeat(40)}\tsub`,
        `160000 ${"1".repeat(40)} 1\tsub`,
        `160000 ${"2".repeat(40)} 2\tsub`,
        `160000 ${"3".repeat(40)} 3\tsub`,
        "",
      ].join("\n"),
      "update-index",
      "--index-info",
    );

    expect(await finish()).toEqual([]);
    expect(git(work, "ls-files", "--stage", "sub")).toBe(
      [1, 2, 3].map((stage) => `160000 ${String(stage).repeat(40)} ${stage}\tsub\n`).join(""),
    );
  });

  it("an index that adds a second submodule is not put back", async () => {
    const { work, gitDir } = await withSubmodule();
    const { view, finish } = await stageGitDir(gitDir);
    addGitlink(gitDir, view, "sub2");

    expect(await finish()).toEqual(["index"]);
    expect(git(work, "ls-files", "--stage", "sub2")).toBe("");
  });

  it("in a repository with no index yet, an index that adds a submodule is not put back", async () => {
    const work = await tempDir("agentry-view-repo-");
    git(work, "init", "-q");
    const gitDir = join(work, ".git");
    const { view, finish } = await stageGitDir(gitDir);
    addGitlink(gitDir, view, "sub");

    expect(await finish()).toEqual(["index"]);
    expect(existsSync(join(gitDir, "index"))).toBe(false);
  });

  it("reading the indexes runs no fsmonitor of the repository's config", async () => {
    const { work, gitDir } = await repository();
    const marker = join(dirname(work), `${basename(work)}-fsmonitor-ran`);
    await writeFile(join(gitDir, "config"), `\n[core]\n\tfsmonitor = "touch ${marker}; false"\n`, {
      flag: "a",
    });
    const { view, finish } = await stageGitDir(gitDir);
    await writeFile(join(work, "new.txt"), "new\n");
    gitWithIndex(gitDir, join(view.staging, "index"), "", "--work-tree", work, "add", "new.txt");

    expect(await finish()).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    expect(
      execFileSync("git", ["-c", "core.fsmonitor=false", "ls-files", "new.txt"], {
        cwd: work,
        encoding: "utf8",
      }),
    ).toBe("new.txt\n");
  });
});
