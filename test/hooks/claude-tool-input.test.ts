import { describe, expect, it } from "vitest";
import {
  agentryToolArgs,
  claudeToolInput,
  claudeToolName,
  claudeToolResponse,
} from "../../src/hooks/claude-tool-input.ts";

const ws = "/work/project";

describe("agentry's tools as Claude Code's hooks see them", () => {
  it("names them as Claude Code does; MCP and unknown names stay", () => {
    expect(
      ["bash", "read", "write", "edit", "grep", "glob", "list", "task", "skill"].map(claudeToolName),
    ).toEqual(["Bash", "Read", "Write", "Edit", "Grep", "Glob", "LS", "Task", "Skill"]);
    expect(claudeToolName("mcp__github__create_issue")).toBe("mcp__github__create_issue");
    expect(claudeToolName("task_wait")).toBe("task_wait");
  });

  it("shapes their input as Claude Code's: file_path absolute, Bash's timeout in ms", () => {
    expect(claudeToolInput("write", { path: "src/a.ts", content: "x" }, ws)).toEqual({
      file_path: "/work/project/src/a.ts",
      content: "x",
    });
    expect(claudeToolInput("edit", { path: "a", old_string: "1", new_string: "2" }, ws)).toEqual({
      file_path: "/work/project/a",
      old_string: "1",
      new_string: "2",
    });
    expect(claudeToolInput("bash", { command: "ls", timeout: 5, outside_sandbox: true }, ws)).toEqual({
      command: "ls",
      timeout: 5000,
      dangerouslyDisableSandbox: true,
    });
    expect(claudeToolInput("grep", { pattern: "x", context: 2, path: "src" }, ws)).toEqual({
      pattern: "x",
      "-C": 2,
      path: "/work/project/src",
    });
    expect(claudeToolInput("list", {}, ws)).toEqual({ path: ws });
  });

  it("reads updatedInput back in agentry's shape", () => {
    expect(agentryToolArgs("write", { file_path: "/work/project/src/a.ts", content: "y" }, ws)).toEqual({
      path: "src/a.ts",
      content: "y",
    });
    expect(agentryToolArgs("read", { file_path: "/elsewhere/b" }, ws)).toEqual({ path: "/elsewhere/b" });
    expect(
      agentryToolArgs("bash", { command: "ls", timeout: 1500, dangerouslyDisableSandbox: false }, ws),
    ).toEqual({
      command: "ls",
      timeout: 2,
      outside_sandbox: false,
    });
  });

  it("gives tool_response where hooks read it", () => {
    expect(claudeToolResponse("write", { path: "a", content: "x" }, "Wrote a", ws)).toMatchObject({
      filePath: "/work/project/a",
      success: true,
    });
    expect(claudeToolResponse("bash", { command: "ls" }, "a\nb", ws)).toMatchObject({ stdout: "a\nb" });
    expect(claudeToolResponse("glob", { pattern: "*" }, "a\nb", ws)).toBe("a\nb");
  });
});
