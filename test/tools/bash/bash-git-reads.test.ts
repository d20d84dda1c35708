import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../src/permissions/defaults.ts";
import { type AskHandler, createPermissionGate, type PermissionMode } from "../../../src/permissions/gate.ts";
import type { PermissionRequest, Ruleset } from "../../../src/permissions/types.ts";
import { DEFAULT_COMMAND_ENV } from "../../../src/sandbox/command-env.ts";
import { detectSandbox } from "../../../src/sandbox/detect.ts";
import { DEFAULT_SANDBOX_SETTINGS } from "../../../src/sandbox/policy.ts";
import { policyForAgent } from "../../../src/sandbox/policy-for-agent.ts";
import { createBashTool } from "../../../src/tools/bash/bash.ts";
import { BUBBLEWRAP, describeWith } from "../../support/components.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { makeContext, runTool } from "../tool-context.ts";

const SECRET = "API_KEY=sk-committed-4f2a";
let workspace: string;

const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], {
    cwd: workspace,
    stdio: "ignore",
  });

/** A repository whose history holds a `.env` that was committed, then removed and ignored. */
beforeEach(async () => {
  workspace = await tempDir("agentry-git-reads-");
  await mkdir(join(workspace, "src"));
  await writeFile(join(workspace, "src", "a.ts"), "export const a = 1;\n");
  await writeFile(join(workspace, ".env"), `${SECRET}\n`);
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "first, with the secret");
  await writeFile(join(workspace, ".gitignore"), ".env\n");
  await writeFile(join(workspace, "src", "a.ts"), "export const a = 2;\n");
  git("rm", "-q", "--cached", ".env");
  git("add", ".");
  git("commit", "-qm", "second, without it");
});

interface Setup {
  mode?: PermissionMode;
  extra?: Ruleset;
  onAsk?: AskHandler;
  sandboxed?: boolean;
}

/** The bash tool behind the real gate (default rules: `.env` files are asked), with no one to ask. */
async function bashWith(setup: Setup = {}) {
  const rules = [...DEFAULT_RULES, ...(setup.extra ?? [])];
  const mode = setup.mode ?? "accept-edits";
  const gate = createPermissionGate({
    rules,
    mode,
    ...(setup.onAsk === undefined ? {} : { onAsk: setup.onAsk }),
  });
  const { ctx, asks } = makeContext(workspace, { ask: (request) => gate(request, { path: ["main"] }) });
  if (setup.sandboxed === true) {
    const support = await detectSandbox();
    if (!support.available) throw new Error(support.reason);
    const policy = await policyForAgent({
      backend: support.backend,
      rules,
      mode,
      workspace,
      settings: DEFAULT_SANDBOX_SETTINGS,
    });
    ctx.commands = { sandbox: policy, env: DEFAULT_COMMAND_ENV };
  }
  const tool = createBashTool({ sandboxed: setup.sandboxed === true });
  return { run: (command: string) => runTool(tool, { command }, ctx), asks };
}

const readAsks = (asks: PermissionRequest[]) => asks.filter((request) => request.permission === "read");

function gitSecretsSuite(sandboxed: boolean) {
  it.each([
    "git show HEAD~1:.env",
    "git cat-file -p HEAD~1:.env",
    "git log -p",
    "git log -p --all -- .",
    "git show HEAD~1",
    "git diff HEAD~1 HEAD",
    "git grep API_KEY HEAD~1",
    "git log -S sk-committed --oneline",
    "echo $(git show HEAD~1:.env)",
    "git show --stat $(git rev-parse HEAD~1:.env)",
  ])("%s is a read of the committed .env, refused without an approver", async (command) => {
    const { run } = await bashWith({ sandboxed });
    await expect(run(command)).rejects.toThrow(/read '\.env'.*needs approval and no one can approve it/);
  });

  // Every command allowed: only the read rule on `.env` stands between the command and the secret.
  it.each([
    "git -c core.fsmonitor='git show HEAD~1:.env >&2; :' status",
    "HOOK='git show HEAD~1:.env >&2; :' git --config-env=core.fsmonitor=HOOK status",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='git show HEAD~1:.env >&2; :' git status",
    "sudo timeout 5 git show HEAD~1:.env",
  ])("%s runs a program that may print the committed .env: a read of it", async (command) => {
    const { run } = await bashWith({
      sandboxed,
      extra: [{ permission: "bash", pattern: "*", action: "allow" }],
    });
    await expect(run(command)).rejects.toThrow(/read '\.env'.*needs approval and no one can approve it/);
  });

  it.each([
    ["git log --oneline", "second, without it"],
    ["git log -p -- src", "export const a = 2;"],
    ["git show HEAD:src/a.ts", "export const a = 2;"],
    ["git diff HEAD~1 HEAD -- src/a.ts", "+export const a = 2;"],
    ["git status --short", "(no output)"],
    // The working tree against the index, which no longer holds the .env.
    ["git diff", "(no output)"],
    ["git grep -n 'const a'", "src/a.ts:1:export const a = 2;"],
  ])("%s shows what it names and nothing kept back", async (command, shown) => {
    const { run } = await bashWith({ sandboxed });
    const result = await run(command);
    expect(result.content).toContain(shown);
    expect(result.content).not.toContain("sk-committed");
  });

  it("prints the secret once the read is allowed (a rule, or the person asked)", async () => {
    const ruled = await bashWith({
      sandboxed,
      extra: [{ permission: "read", pattern: ".env", action: "allow" }],
    });
    expect((await ruled.run("git show HEAD~1:.env")).content).toBe(SECRET);
    const prompted: string[][] = [];
    const asked = await bashWith({
      sandboxed,
      onAsk: async (request) => {
        prompted.push(request.patterns);
        return "once";
      },
    });
    expect((await asked.run("git log -p")).content).toContain(`+${SECRET}`);
    expect(prompted).toEqual([[".env"]]);
  });
}

describe("bash: git commands that print a committed secret are reads of it (no OS sandbox)", () => {
  gitSecretsSuite(false);

  it("asks read for every file the history and index hold, once, and nothing for quiet commands", async () => {
    const { run, asks } = await bashWith({ mode: "bypass" });
    await run("git log -p");
    expect(readAsks(asks)).toEqual([
      {
        permission: "read",
        patterns: [".env", ".gitignore", "src/a.ts"],
        title: "git log -p may print files from git (its history, index or working tree)",
      },
    ]);
    const quiet = await bashWith({ mode: "bypass" });
    await quiet.run("git log --oneline && git status && git ls-files");
    expect(readAsks(quiet.asks)).toEqual([]);
  });

  it("maps paths to the workspace when it is a folder of the repository", async () => {
    await mkdir(join(workspace, "pkg"));
    await writeFile(join(workspace, "pkg", "b.ts"), "b\n");
    git("add", ".");
    git("commit", "-qm", "pkg");
    const inner = workspace;
    workspace = join(inner, "pkg");
    const { run, asks } = await bashWith({ mode: "bypass" });
    await run("git log -p -- .");
    await run("git show HEAD~2:.env");
    expect(readAsks(asks).map((request) => request.patterns)).toEqual([["b.ts"], ["../.env"]]);
  });

  it("a command run from another folder asks for every file: the names it gives are that folder's", async () => {
    await mkdir(join(workspace, "deploy"));
    await writeFile(join(workspace, "deploy", ".env"), `${SECRET}\n`);
    git("add", "-f", "deploy/.env");
    git("commit", "-qm", "deploy secret");
    // The user lets the model read the root .env, not deploy/.env.
    const allowRoot: Ruleset = [
      { permission: "bash", pattern: "*", action: "allow" },
      { permission: "read", pattern: ".env", action: "allow" },
    ];
    for (const command of ["git -C deploy blame .env", "cd deploy && git show HEAD:./.env"]) {
      const { run, asks } = await bashWith({ extra: allowRoot });
      await expect(run(command)).rejects.toThrow(/read .*deploy\/\.env.*needs approval/);
      expect(readAsks(asks).flatMap((request) => request.patterns)).toContain("deploy/.env");
    }
  });

  it("refuses to run when the files it may print cannot be listed (fail closed)", async () => {
    // A repository git finds but cannot walk: the first commit's object is gone.
    const first = execFileSync("git", ["rev-parse", "HEAD~1"], { cwd: workspace, encoding: "utf8" }).trim();
    await rm(join(workspace, ".git", "objects", first.slice(0, 2), first.slice(2)));
    const { run } = await bashWith({ mode: "bypass" });
    await expect(run("git log -p")).rejects.toThrow(/could not be listed/);
  });
});

describeWith(
  BUBBLEWRAP,
  "bash: git commands that print a committed secret are reads of it (OS sandbox)",
  () => {
    gitSecretsSuite(true);
  },
);
