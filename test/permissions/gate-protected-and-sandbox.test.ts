import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { type AskHandler, createPermissionGate } from "../../src/permissions/gate.ts";
import { isProtectedPath } from "../../src/permissions/protected-paths.ts";
import {
  editRestrictedPaths,
  literalPathPrefix,
  sandboxCovers,
} from "../../src/permissions/sandbox-coverage.ts";
import { PermissionDeniedError, type PermissionRequest, type Ruleset } from "../../src/permissions/types.ts";

const main = { path: ["main"] };
const edit = (path: string): PermissionRequest => ({ permission: "edit", patterns: [path] });
const read = (path: string): PermissionRequest => ({ permission: "read", patterns: [path] });

/** Answers every prompt with `answer` and records what was asked. */
function answering(answer: "once" | "always" | "reject") {
  const asked: Parameters<AskHandler>[0][] = [];
  const onAsk: AskHandler = async (request) => {
    asked.push(request);
    return answer;
  };
  return { asked, onAsk };
}

describe("protected paths", () => {
  it("covers git's config and hooks, agentry's config and state, agent and editor settings, not plans", () => {
    for (const path of [
      ".git/config",
      ".git/hooks/pre-commit",
      ".git",
      ".agentry/config.json",
      "agentry.json",
      ".claude/agents/x.md",
      ".claude/settings.json",
      ".opencode/agent/a.md",
      "opencode.json",
      ".codex/config.toml",
      ".mcp.json",
      ".vscode/tasks.json",
      ".envrc",
      "./.git/config",
    ]) {
      expect(isProtectedPath(path), path).toBe(true);
    }
    for (const path of [
      ".agentry/plans/refactor.md",
      "src/.git-ignore-me",
      "gitconfig.md",
      "docs/.claude.md",
    ]) {
      expect(isProtectedPath(path), path).toBe(false);
    }
  });

  it("a protected path needs a person even when a rule allows the edit and the mode accepts edits", async () => {
    const rules: Ruleset = [{ permission: "edit", pattern: "*", action: "allow" }];
    const { asked, onAsk } = answering("once");
    const gate = createPermissionGate({ rules, mode: "accept-edits", onAsk });
    await gate(edit("src/a.ts"), main);
    expect(asked).toHaveLength(0);
    await gate(edit(".git/config"), main);
    expect(asked.map((request) => request.patterns)).toEqual([[".git/config"]]);
  });

  it("with no one to ask, a protected write is denied with a message that says why and what to do", async () => {
    const gate = createPermissionGate({ rules: DEFAULT_RULES, mode: "accept-edits" });
    await expect(gate(edit("src/a.ts"), main)).resolves.toBeUndefined();
    const refused = gate(edit(".agentry/config.json"), main);
    await expect(refused).rejects.toThrow(PermissionDeniedError);
    await expect(refused).rejects.toThrow(/protected path .*--permission-mode bypass/);
  });

  it("bypass lifts the protection; plan mode denies it as any edit; a deny rule holds everywhere", async () => {
    await expect(
      createPermissionGate({ rules: DEFAULT_RULES, mode: "bypass" })(edit(".git/hooks/pre-commit"), main),
    ).resolves.toBeUndefined();
    await expect(
      createPermissionGate({ rules: DEFAULT_RULES, mode: "plan" })(edit(".mcp.json"), main),
    ).rejects.toThrow(/plan mode/);
    const denied: Ruleset = [...DEFAULT_RULES, { permission: "edit", pattern: ".git/*", action: "deny" }];
    await expect(
      createPermissionGate({ rules: denied, mode: "bypass" })(edit(".git/config"), main),
    ).rejects.toThrow(/denied by rule/);
  });

  it("'always' on a protected path approves that path only", async () => {
    const { asked, onAsk } = answering("always");
    const gate = createPermissionGate({ rules: DEFAULT_RULES, mode: "accept-edits", onAsk });
    await gate(edit(".vscode/tasks.json"), main);
    await gate(edit(".vscode/tasks.json"), main);
    await gate(edit(".vscode/launch.json"), main);
    expect(asked.map((request) => request.always)).toEqual([[".vscode/tasks.json"], [".vscode/launch.json"]]);
  });
});

describe("'always' covers the ask rule's pattern", () => {
  it("five reads under one ask rule give one prompt, which says what 'always' covers", async () => {
    const { asked, onAsk } = answering("always");
    const gate = createPermissionGate({ rules: DEFAULT_RULES, mode: "default", onAsk });
    for (const path of ["a.env", "b.env", "config/c.env", "d.env", "e.env"]) await gate(read(path), main);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.always).toEqual(["*.env"]);
    // Another ask rule is another question.
    await gate(read(".env.local"), main);
    expect(asked).toHaveLength(2);
  });

  it("a command is approved by its prefix, or exactly where a prefix would be too wide — never by `bash *`", async () => {
    const { asked, onAsk } = answering("always");
    const gate = createPermissionGate({
      rules: [{ permission: "bash", pattern: "*", action: "ask" }],
      mode: "default",
      onAsk,
    });
    for (const command of ["npm test", "npm test -- --x", "make", "rm -rf /", "python3 x.py", "npm install"])
      await gate({ permission: "bash", patterns: [command] }, main);
    expect(asked.map((request) => request.always)).toEqual([
      ["npm test *"],
      ["make"],
      ["rm -rf /"],
      ["python3 x.py"],
      ["npm install *"],
    ]);
    expect(asked.map((request) => request.alwaysRules)).toEqual([
      ["Bash(npm test:*)"],
      ["Bash(make)"],
      ["Bash(rm -rf /)"],
      ["Bash(python3 x.py)"],
      ["Bash(npm install:*)"],
    ]);
  });

  it("leaving the sandbox is approved one exact command at a time, even under an `unsandboxed *` ask rule", async () => {
    const { asked, onAsk } = answering("always");
    const rules = [...DEFAULT_RULES, { permission: "unsandboxed", pattern: "*", action: "ask" } as const];
    const gate = createPermissionGate({ rules, mode: "default", onAsk });
    const unsandboxed = (command: string): PermissionRequest => ({
      permission: "unsandboxed",
      patterns: [command],
    });
    await gate(unsandboxed("curl https://x.dev"), main);
    await gate(unsandboxed("curl https://x.dev"), main);
    await gate(unsandboxed("curl https://y.dev"), main);
    expect(asked.map((request) => request.always)).toEqual([["curl https://x.dev"], ["curl https://y.dev"]]);
  });
});

describe("sandboxed commands", () => {
  const command = (sandbox?: "read-only" | "workspace-write"): PermissionRequest => ({
    permission: "bash",
    patterns: ["python3 -c 'print(1)'"],
    ...(sandbox === undefined ? {} : { sandbox }),
  });

  it("a command in a read-only sandbox need not ask; the same command unconfined is still denied", async () => {
    const gate = createPermissionGate({ rules: DEFAULT_RULES, mode: "default" });
    await expect(gate(command("read-only"), main)).resolves.toBeUndefined();
    await expect(gate(command(), main)).rejects.toThrow(/needs approval/);
  });

  it("workspace-write is covered only where edits are allowed without a prompt", async () => {
    await expect(
      createPermissionGate({ rules: DEFAULT_RULES, mode: "default" })(command("workspace-write"), main),
    ).rejects.toThrow(/needs approval/);
    await expect(
      createPermissionGate({ rules: DEFAULT_RULES, mode: "accept-edits" })(command("workspace-write"), main),
    ).resolves.toBeUndefined();
  });

  it("a deny rule holds for sandboxed commands too", async () => {
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "bash", pattern: "python3 *", action: "deny" }];
    await expect(createPermissionGate({ rules, mode: "bypass" })(command("read-only"), main)).rejects.toThrow(
      /denied by rule/,
    );
  });

  it("edit rules the sandbox cannot express keep workspace-write commands asking", () => {
    const base: Ruleset = [{ permission: "edit", pattern: "*", action: "allow" }];
    expect(sandboxCovers(base, "default", "workspace-write")).toBe(true);
    const secrets: Ruleset = [...base, { permission: "edit", pattern: "secrets/**", action: "deny" }];
    expect(sandboxCovers(secrets, "default", "workspace-write")).toBe(true);
    expect(editRestrictedPaths(secrets)).toEqual(["secrets"]);
    const lockfiles: Ruleset = [...base, { permission: "edit", pattern: "*.lock", action: "deny" }];
    expect(sandboxCovers(lockfiles, "default", "workspace-write")).toBe(false);
    expect(sandboxCovers(lockfiles, "default", "read-only")).toBe(true);
    const noEdits: Ruleset = [{ permission: "edit", pattern: "*", action: "deny" }];
    expect(sandboxCovers(noEdits, "bypass", "workspace-write")).toBe(false);
  });

  it("literal path prefixes", () => {
    expect(literalPathPrefix("src/gen/**")).toBe("src/gen");
    expect(literalPathPrefix("./a.env")).toBe("a.env");
    expect(literalPathPrefix("docs/*.md")).toBe("docs");
    expect(literalPathPrefix("*.lock")).toBeUndefined();
    expect(literalPathPrefix("**")).toBeUndefined();
  });
});
