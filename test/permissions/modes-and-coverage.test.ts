import { describe, expect, it } from "vitest";
import { errorKind } from "../../src/errors/agentry-error.ts";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { isToolHidden } from "../../src/permissions/derive.ts";
import { evaluateRequest } from "../../src/permissions/evaluate.ts";
import { decideAsk } from "../../src/permissions/modes.ts";
import { isProtectedPath } from "../../src/permissions/protected-paths.ts";
import {
  editRestrictedPaths,
  literalPathPrefix,
  sandboxCovers,
} from "../../src/permissions/sandbox-coverage.ts";
import { PermissionDeniedError, type Ruleset } from "../../src/permissions/types.ts";

describe("what a permission mode does with an ask", () => {
  it("accept-edits allows edits and hands everything else to the user", () => {
    expect(decideAsk("accept-edits", "edit", ["a.ts"])).toEqual({ kind: "allow" });
    expect(decideAsk("accept-edits", "bash", ["ls"])).toEqual({ kind: "prompt" });
    expect(decideAsk("default", "edit", ["a.ts"])).toEqual({ kind: "prompt" });
    expect(decideAsk("bypass", "unsandboxed", ["rm x"])).toEqual({ kind: "allow" });
  });

  it("plan allows read-only commands, refuses edits, other commands and leaving the sandbox, and asks the rest", () => {
    expect(decideAsk("plan", "bash", ["ls", "git status"])).toEqual({ kind: "allow" });
    expect(decideAsk("plan", "bash", ["ls", "rm x"])).toEqual({
      kind: "deny",
      reason:
        "plan mode (--permission-mode plan) does not allow commands that are not read-only; describe the change in your plan instead",
    });
    expect(decideAsk("plan", "edit", ["a.ts"])).toEqual({
      kind: "deny",
      reason:
        "plan mode (--permission-mode plan) does not allow editing files; describe the change in your plan instead",
    });
    expect(decideAsk("plan", "unsandboxed", ["ls"])).toEqual({
      kind: "deny",
      reason: "plan mode (--permission-mode plan) runs commands in a read-only sandbox only",
    });
    expect(decideAsk("plan", "read", ["ls"])).toEqual({ kind: "prompt" });
    expect(decideAsk("plan", "webfetch", ["https://x.dev"])).toEqual({ kind: "prompt" });
  });
});

describe("whether the OS sandbox covers an asked command", () => {
  const editAsk: Ruleset = [{ permission: "edit", pattern: "*", action: "ask" }];
  it("read-only always; workspace-write when edits are free in this mode and every kept-back path is literal", () => {
    expect(sandboxCovers([], "default", "read-only")).toBe(true);
    expect(sandboxCovers(editAsk, "default", "workspace-write")).toBe(false);
    expect(sandboxCovers(editAsk, "accept-edits", "workspace-write")).toBe(true);
    expect(sandboxCovers(editAsk, "bypass", "workspace-write")).toBe(true);
    expect(
      sandboxCovers([{ permission: "edit", pattern: "*", action: "deny" }], "bypass", "workspace-write"),
    ).toBe(false);
    const lockfiles: Ruleset = [...editAsk, { permission: "edit", pattern: "*.lock", action: "deny" }];
    expect(sandboxCovers(lockfiles, "accept-edits", "workspace-write")).toBe(false);
    const vendor: Ruleset = [
      ...editAsk,
      { permission: "edit", pattern: "vendor/**", action: "deny" },
      { permission: "edit", pattern: "gen/*", action: "allow" },
    ];
    expect(sandboxCovers(vendor, "accept-edits", "workspace-write")).toBe(true);
    // A folder in any depth has no literal path the sandbox could keep read-only.
    const anyDepth: Ruleset = [...editAsk, { permission: "edit", pattern: "**/secrets/**", action: "deny" }];
    expect(sandboxCovers(anyDepth, "accept-edits", "workspace-write")).toBe(false);
  });

  it("kept-back paths are the literal folders or files of edit rules that deny or ask", () => {
    const rules: Ruleset = [
      { permission: "edit", pattern: "*", action: "ask" },
      { permission: "edit", pattern: "./secrets/**", action: "deny" },
      { permission: "edit", pattern: "config/app.env", action: "ask" },
      { permission: "edit", pattern: "open/**", action: "allow" },
      { permission: "read", pattern: "private/**", action: "deny" },
      { permission: "edit", pattern: "*.lock", action: "deny" },
      { permission: "*", pattern: "all/**", action: "deny" },
    ];
    expect(editRestrictedPaths(rules)).toEqual(["secrets", "config/app.env", "all"]);
  });

  it.each([
    ["src/gen/**", "src/gen"],
    ["a.env", "a.env"],
    ["./././docs/", "docs"],
    ["//abs//", "abs"],
    ["src/a?.ts", "src"],
    ["*.lock", undefined],
    ["**", undefined],
    ["./", undefined],
    // Only the folders before the first wildcard are literal.
    ["src/*/gen/**", "src"],
    ["**/secrets/**", undefined],
    // A folder whose name ends in a dot keeps it: only a leading `./` is dropped.
    ["src/app./**", "src/app."],
  ])("the literal part of %j is %j", (pattern, literal) => {
    expect(literalPathPrefix(pattern)).toBe(literal);
  });
});

describe("protected paths", () => {
  it.each([
    ".git/config",
    ".gitmodules",
    ".agentry/config.json",
    "agentry.json",
    ".claude/settings.json",
    ".opencode/agent/x.md",
    "opencode.json",
    "opencode.jsonc",
    ".codex/config.toml",
    ".mcp.json",
    "subagents/x.md",
    ".vscode/tasks.json",
    ".idea/workspace.xml",
    ".husky/pre-commit",
    ".envrc",
    ".bashrc",
    ".bash_profile",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".gitconfig",
    "./.claude/",
    ".\\.claude\\agents\\x.md",
  ])("%s is protected", (path) => {
    expect(isProtectedPath(path)).toBe(true);
  });

  it.each([".agentry/plans/plan.md", ".agentry/plans", "src/.claude", ".claudex", "agentry.json.bak"])(
    "%s is not",
    (path) => {
      expect(isProtectedPath(path)).toBe(false);
    },
  );
});

describe("rules", () => {
  it("a request without patterns is the pattern *; no matching rule asks", () => {
    const rules: Ruleset = [{ permission: "task", pattern: "*", action: "allow" }];
    expect(evaluateRequest(rules, "task", []).action).toBe("allow");
    expect(evaluateRequest(rules, "webfetch", ["https://x.dev"])).toEqual({
      action: "ask",
      patterns: [{ pattern: "https://x.dev", action: "ask" }],
    });
  });

  it("a tool is hidden only when no later rule of its permission allows or asks anything", () => {
    const denied: Ruleset = [{ permission: "bash", pattern: "*", action: "deny" }];
    expect(isToolHidden(denied, "bash")).toBe(true);
    expect(isToolHidden([...denied, { permission: "bash", pattern: "ls *", action: "allow" }], "bash")).toBe(
      false,
    );
    expect(isToolHidden([...denied, { permission: "bash", pattern: "rm *", action: "deny" }], "bash")).toBe(
      true,
    );
    expect(isToolHidden([...denied, { permission: "edit", pattern: "*", action: "allow" }], "bash")).toBe(
      true,
    );
  });

  it("a refusal is the user's to change, by its name", () => {
    const error = new PermissionDeniedError("bash:'rm *':deny");
    expect(errorKind(error)).toBe("user");
    expect(String(error)).toBe("PermissionDeniedError: bash:'rm *':deny");
  });
});

describe("the default rules", () => {
  it("ask before an edit and before a path outside the workspace", () => {
    expect(evaluateRequest(DEFAULT_RULES, "edit", ["src/a.ts"]).patterns[0]?.rule).toEqual({
      permission: "edit",
      pattern: "*",
      action: "ask",
    });
    expect(evaluateRequest(DEFAULT_RULES, "external_directory", ["/etc/hosts"]).patterns[0]?.rule).toEqual({
      permission: "external_directory",
      pattern: "*",
      action: "ask",
    });
  });
});
