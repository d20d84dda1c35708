import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { DEFAULT_COMMAND_ENV } from "../../src/sandbox/command-env.ts";
import { DEFAULT_SANDBOX_SETTINGS, type SandboxBackend } from "../../src/sandbox/policy.ts";
import { policyForAgent } from "../../src/sandbox/policy-for-agent.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import { type SandboxFixture, sandboxBackend, sandboxFixture } from "./support.ts";

const found = await sandboxBackend();
const backend = found.backend as SandboxBackend;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

/**
 * The fixture's repository with per-worktree config switched on and a linked worktree `wt/` on its own
 * branch: the workspace of an agent with `workspace: worktree`. Its git folder is
 * `ws/.git/worktrees/wt/`, where `git config --worktree` writes (`config.worktree`).
 */
async function linkedWorktree(
  fx: SandboxFixture,
  ownSetting = false,
): Promise<{ worktree: string; worktreeConfig: string }> {
  git(fx.workspace, "config", "extensions.worktreeConfig", "true");
  const worktree = join(fx.base, "wt");
  git(fx.workspace, "worktree", "add", "-q", "-b", "agent-branch", worktree);
  // A setting of the worktree's own (as sparse checkout writes one) makes the file exist before the command.
  if (ownSetting) git(worktree, "config", "--worktree", "core.sparseCheckout", "false");
  return { worktree, worktreeConfig: join(fx.workspace, ".git", "worktrees", "wt", "config.worktree") };
}

async function runIn(fx: SandboxFixture, workspace: string, command: string) {
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

describe.skipIf(found.skip !== undefined)(
  `commands in a linked worktree's sandbox ${found.skip ?? ""}`,
  () => {
    it.each([
      ["that exists (mounted read-only)", true],
      ["that does not exist yet (removed after the command)", false],
    ])(
      "commit on the worktree's branch, but cannot give it an fsmonitor through a config.worktree %s, nor repoint its .git",
      async (_, ownSetting) => {
        const fx = await sandboxFixture();
        const { worktree, worktreeConfig } = await linkedWorktree(fx, ownSetting);
        // Run by git outside the sandbox, the fsmonitor would leave this mark; inside it cannot write there.
        const mark = join(fx.outside, "pwned");

        const result = await runIn(
          fx,
          worktree,
          [
            `git config --worktree core.fsmonitor 'touch ${mark}'`,
            `echo '[core] fsmonitor = touch ${mark}' >> ${worktreeConfig}`,
            `echo 'gitdir: ${fx.outside}' > .git`,
            "echo b > b.txt && git add b.txt && git -c user.email=t@t -c user.name=t commit -qm two && echo committed",
          ].join("; "),
        );

        expect(result.output).toContain("committed");
        expect(git(fx.workspace, "log", "--oneline", "agent-branch")).toContain("two");
        // Outside the sandbox, git in the worktree finds no fsmonitor: the next `git status` runs nothing.
        const config = existsSync(worktreeConfig) ? await readFile(worktreeConfig, "utf8") : "";
        expect(config).not.toContain("fsmonitor");
        expect(() => git(worktree, "config", "--get", "core.fsmonitor")).toThrow();
        expect(await readFile(join(worktree, ".git"), "utf8")).toContain(
          join(fx.workspace, ".git", "worktrees"),
        );
        git(worktree, "status");
        expect(existsSync(mark)).toBe(false);
      },
    );

    it("cannot write the main checkout's git config or hooks from the worktree either", async () => {
      const fx = await sandboxFixture();
      const { worktree } = await linkedWorktree(fx);

      await runIn(
        fx,
        worktree,
        [
          "git config core.fsmonitor 'touch pwned'",
          `echo '[core] fsmonitor = touch pwned' >> ${join(fx.workspace, ".git", "config")}`,
          `printf '#!/bin/sh\\ntouch pwned\\n' > ${join(fx.workspace, ".git", "hooks", "pre-commit")}`,
        ].join("; "),
      );

      expect(await readFile(join(fx.workspace, ".git", "config"), "utf8")).not.toContain("fsmonitor");
      expect(existsSync(join(fx.workspace, ".git", "hooks", "pre-commit"))).toBe(false);
    });
  },
);

describe.skipIf(found.skip !== undefined)(
  `commands in a folder inside a repository ${found.skip ?? ""}`,
  () => {
    it("use git on the repository around them, but write only their folder", async () => {
      const fx = await sandboxFixture();
      const folder = join(fx.workspace, "src");

      const result = await runIn(
        fx,
        folder,
        "git log --oneline; echo b > b.ts && git status --short; touch ../.git/pwned ../outside.txt",
      );

      expect(result.output).toContain("init");
      expect(result.output).toContain("?? b.ts");
      expect(existsSync(join(fx.workspace, ".git", "pwned"))).toBe(false);
      expect(existsSync(join(fx.workspace, "outside.txt"))).toBe(false);
    });
  },
);
