import { describe, expect, it } from "vitest";
import { isProtectedPath } from "../../src/permissions/protected-paths.ts";

/** Which workspace paths a model never writes without a person (the gate asks; `gate-protected-and-sandbox`). */
describe("isProtectedPath", () => {
  it.each([
    ".git",
    ".gitmodules",
    ".agentry",
    "agentry.json",
    ".claude",
    ".opencode",
    "opencode.json",
    "opencode.jsonc",
    ".codex",
    ".mcp.json",
    "subagents",
    ".vscode",
    ".idea",
    ".husky",
    ".envrc",
    ".bashrc",
    ".bash_profile",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".gitconfig",
  ])("%s is protected, and everything under it", (path) => {
    expect(isProtectedPath(path)).toBe(true);
    expect(isProtectedPath(`${path}/x/y`)).toBe(true);
  });

  it.each([
    ["a name that only starts like one", ".gitignore"],
    ["a name that only ends like one", "my.envrc"],
    ["one further down the tree", "src/.git/config"],
    ["the plans folder, product output of the plan agent", ".agentry/plans"],
    ["a plan", ".agentry/plans/refactor.md"],
    ["a plan, spelled with a `.` step", ".agentry/./plans/refactor.md"],
    ["the workspace itself", "."],
  ])("%s is not protected: %s", (_behaviour, path) => {
    expect(isProtectedPath(path)).toBe(false);
  });

  it.each([
    ["a folder of agentry's that only starts like the plans folder", ".agentry/plansx/a.md"],
    ["a leading ./", "./.git/config"],
    ["leading ./ repeated", "././.git/config"],
    ["a trailing slash", ".claude/"],
    ["trailing slashes repeated", ".vscode//"],
    ["backslashes", ".git\\hooks\\pre-commit"],
    ["a doubled slash", ".git//hooks/pre-commit"],
    ["a `..` step back into it", "src/../.git/config"],
    ["a `..` step out of the plans folder", ".agentry/plans/../config.json"],
    ["`..` steps out of the plans folder, with backslashes", ".agentry\\plans\\..\\..\\.mcp.json"],
  ])("a protected path however it is spelled: %s (%s)", (_spelling, path) => {
    expect(isProtectedPath(path)).toBe(true);
  });
});
