import { describe, expect, it } from "vitest";
import { type Diagnostic, formatDiagnostics, hasErrors } from "../../src/agents/diagnostics.ts";

const diagnostics: Diagnostic[] = [
  {
    severity: "info",
    file: "/p/.claude/agents/b.md",
    line: 2,
    message: "name differs",
    action: "named it b",
  },
  {
    severity: "warning",
    file: "/p/.claude/agents/b.md",
    line: 4,
    message: "unknown tool X",
    action: "dropped unknown tool X",
  },
  {
    severity: "error",
    file: "/p/.codex/agents/a.toml",
    line: 1,
    message: "invalid TOML: bad",
    action: "skipped the file",
  },
  { severity: "warning", file: "--agents", message: "unknown tool Y", action: "dropped unknown tool Y" },
];

describe("formatDiagnostics", () => {
  it("prints one compiler-style line per diagnostic, sorted, relative to cwd, then a summary", () => {
    expect(formatDiagnostics(diagnostics, { cwd: "/p" }).split("\n")).toEqual([
      "--agents: warning: unknown tool Y → dropped unknown tool Y",
      ".claude/agents/b.md:2: info: name differs → named it b",
      ".claude/agents/b.md:4: warning: unknown tool X → dropped unknown tool X",
      ".codex/agents/a.toml:1: error: invalid TOML: bad → skipped the file",
      "1 error, 2 warnings, 1 info",
    ]);
  });

  it("can hide info lines and keeps absolute paths outside cwd", () => {
    const text = formatDiagnostics(diagnostics, { cwd: "/elsewhere", hideInfo: true });
    expect(text).not.toContain("name differs");
    expect(text).toContain("/p/.codex/agents/a.toml:1: error");
  });

  it("says so when there is nothing to report", () => {
    expect(formatDiagnostics([])).toBe("0 errors, 0 warnings, 0 info");
  });

  it("hasErrors is true only with an error", () => {
    expect(hasErrors(diagnostics)).toBe(true);
    expect(hasErrors(diagnostics.filter((d) => d.severity !== "error"))).toBe(false);
  });
});
