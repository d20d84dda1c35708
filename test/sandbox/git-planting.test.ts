import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { DEFAULT_COMMAND_ENV } from "../../src/sandbox/command-env.ts";
import { DEFAULT_SANDBOX_SETTINGS, type SandboxBackend } from "../../src/sandbox/policy.ts";
import { policyForAgent } from "../../src/sandbox/policy-for-agent.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import { type SandboxFixture, sandboxBackend, sandboxFixture } from "./support.ts";

// Issue 21: code planted through git that runs later, outside the sandbox. A writing command
// (accept-edits) tries to make the user's next `git status` — or agentry's own `git add -A` after a
// worktree child — run a program of its choosing, through a part of `.git` git reads its config from.

const found = await sandboxBackend();
const backend = found.backend as SandboxBackend;

/** Runs `command` in `workspace` inside the sandbox of an accept-edits agent working there. */
async function run(fx: SandboxFixture, command: string, workspace = fx.workspace) {
  const policy = await policyForAgent({
    backend,
    rules: DEFAULT_RULES,
    mode: "accept-edits",
    workspace,
    settings: DEFAULT_SANDBOX_SETTINGS,
    home: fx.home,
  });
  return nodeOperations.exec(command, {
    cwd: workspace,
    signal: new AbortController().signal,
    timeoutMs: 20_000,
    inheritEnv: DEFAULT_COMMAND_ENV,
    env: { HOME: fx.home },
    sandbox: { policy, profile: "workspace-write" },
  });
}

/** The user's own git, outside any sandbox, as they would run it after the agent. */
const userGit = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=u@u", "-c", "user.name=u", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

/** A git config that runs `touch marker` on the next `git status` (fsmonitor) and `git add` (filter x). */
const plantedConfig = (marker: string) =>
  `[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = \\"touch ${marker}; false\\"\\n[filter \\"x\\"]\\n\\tclean = \\"touch ${marker}; cat\\"\\n`;

describe.skipIf(found.skip !== undefined)(`git planted by a sandboxed command ${found.skip ?? ""}`, () => {
  it("a commondir written into the main .git is not honoured later: the user's git status runs nothing", async () => {
    const fx = await sandboxFixture();
    const marker = join(fx.outside, "commondir-ran");
    const result = await run(
      fx,
      [
        "mkdir -p .git/ev",
        "cp -r .git/objects .git/refs .git/HEAD .git/ev/",
        `printf "${plantedConfig(marker)}" > .git/ev/config`,
        "echo ev > .git/commondir",
        "echo planted",
      ].join("; "),
    );
    expect(result.output).toContain("planted");
    userGit(fx.workspace, "status", "--porcelain");
    userGit(fx.workspace, "add", "-A");
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(fx.workspace, ".git", "commondir"))).toBe(false);
  });

  it(".git cannot be renamed and replaced by a folder with a config of the command's choosing", async () => {
    const fx = await sandboxFixture();
    const marker = join(fx.outside, "renamed-ran");
    const head = await readFile(join(fx.workspace, ".git", "HEAD"), "utf8");
    const result = await run(
      fx,
      [
        "mv .git .git-old && mkdir .git && cp -r .git-old/objects .git-old/refs .git-old/HEAD .git/",
        `printf "${plantedConfig(marker)}" > .git/config`,
        "echo done",
      ].join("; "),
    );
    expect(result.output).toContain("done");
    userGit(fx.workspace, "status", "--porcelain");
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(fx.workspace, ".git-old"))).toBe(false);
    expect((await stat(join(fx.workspace, ".git"))).isDirectory()).toBe(true);
    expect(await readFile(join(fx.workspace, ".git", "HEAD"), "utf8")).toBe(head);
    expect(await readFile(join(fx.workspace, ".git", "config"), "utf8")).not.toContain("fsmonitor");
  });

  it("a linked worktree's commondir stays the repository's: a planted filter does not run on git add", async () => {
    const fx = await sandboxFixture();
    const worktree = join(fx.base, "wt");
    userGit(fx.workspace, "worktree", "add", "-q", "-b", "child", worktree);
    const worktreeDir = join(fx.workspace, ".git", "worktrees", "wt");
    const commondir = await readFile(join(worktreeDir, "commondir"), "utf8");
    const marker = join(fx.outside, "filter-ran");
    const result = await run(
      fx,
      [
        "mkdir -p ev",
        `cp -r ${fx.workspace}/.git/objects ${fx.workspace}/.git/refs ev/`,
        `printf "${plantedConfig(marker)}" > ev/config`,
        `echo ${worktree}/ev > ${worktreeDir}/commondir`,
        "echo '* filter=x' > .gitattributes",
        "echo data > new.txt",
        "echo done",
      ].join("; "),
      worktree,
    );
    expect(result.output).toContain("done");
    userGit(worktree, "add", "-A");
    expect(existsSync(marker)).toBe(false);
    expect(await readFile(join(worktreeDir, "commondir"), "utf8")).toBe(commondir);
  });

  it("a repository made inside the workspace and recorded as a submodule is not put in the index: the user's git status does not enter it", async () => {
    const fx = await sandboxFixture();
    const marker = join(fx.outside, "submodule-ran");
    const result = await run(
      fx,
      [
        "mkdir sub && cd sub && git init -q && echo b > b && git add b",
        "git -c user.email=t@t -c user.name=t commit -qm sub",
        `git config core.fsmonitor "touch ${marker}; false"`,
        "cd .. && git add sub 2>/dev/null && git -c user.email=t@t -c user.name=t commit -qm with-sub",
        "echo done",
      ].join(" && "),
    );
    expect(result.output).toContain("done");
    userGit(fx.workspace, "status", "--porcelain");
    expect(existsSync(marker)).toBe(false);
    expect(userGit(fx.workspace, "ls-files", "--stage", "sub")).toBe("");
  });

  it("git still commits in the sandbox, in the main checkout and in a linked worktree", async () => {
    const fx = await sandboxFixture();
    const worktree = join(fx.base, "wt");
    userGit(fx.workspace, "worktree", "add", "-q", "-b", "child", worktree);
    const commit = (message: string) =>
      `echo ${message} > ${message}.txt && git add ${message}.txt && git -c user.email=t@t -c user.name=t commit -qm ${message} && echo committed-${message}`;
    const main = await run(fx, `${commit("main")}; git branch side && git stash list && echo listed`);
    expect(main.output).toContain("committed-main");
    expect(main.output).toContain("listed");
    const linked = await run(fx, commit("linked"), worktree);
    expect(linked.output).toContain("committed-linked");
    // Each checkout's index is the one the commit left: nothing is staged or missing afterwards.
    expect(userGit(fx.workspace, "status", "--porcelain")).toBe("");
    expect(userGit(worktree, "status", "--porcelain")).toBe("");
    expect(userGit(fx.workspace, "log", "--format=%s", "-1", "HEAD")).toBe("main\n");
    expect(userGit(fx.workspace, "log", "--format=%s", "-1", "child")).toBe("linked\n");
    expect(userGit(fx.workspace, "branch", "--list", "side")).toContain("side");
  });
});
