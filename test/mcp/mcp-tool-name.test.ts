import { describe, expect, it } from "vitest";
import { hashedMcpToolName, MAX_TOOL_NAME_LENGTH, mcpToolName } from "../../src/mcp/mcp-tool-name.ts";

describe("mcpToolName", () => {
  it("is mcp__<server>__<tool>", () => {
    expect(mcpToolName("github", "create_issue")).toBe("mcp__github__create_issue");
    expect(mcpToolName("my-server", "get-file")).toBe("mcp__my-server__get-file");
  });

  it("replaces characters outside [A-Za-z0-9_-] with _, as Claude Code does", () => {
    expect(mcpToolName("fs", "read.file")).toBe("mcp__fs__read_file");
    expect(mcpToolName("my server", "ünïcode tool/x")).toBe("mcp__my_server___n_code_tool_x");
  });

  it("keeps long names within 64 characters, unique and stable", () => {
    const long = "a".repeat(80);
    const name = mcpToolName("server", long);
    expect(name).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(name).toMatch(/^mcp__server__a+_[0-9a-f]{8}$/);
    expect(mcpToolName("server", long)).toBe(name);
    expect(mcpToolName("server", `${long}b`)).not.toBe(name);
    expect(mcpToolName("server", `${"a".repeat(100)}`)).not.toBe(name);
    const exactly64 = `mcp__s__${"x".repeat(MAX_TOOL_NAME_LENGTH - 8)}`;
    expect(mcpToolName("s", "x".repeat(MAX_TOOL_NAME_LENGTH - 8))).toBe(exactly64);
  });

  it("has a hashed form that tells apart names that look the same after replacement", () => {
    expect(mcpToolName("fs", "a.b")).toBe(mcpToolName("fs", "a_b"));
    const dotted = hashedMcpToolName("fs", "a.b");
    expect(dotted).toMatch(/^mcp__fs__a_b_[0-9a-f]{8}$/);
    expect(dotted).not.toBe(hashedMcpToolName("fs", "a_b"));
    expect(hashedMcpToolName("a", "b__c")).not.toBe(hashedMcpToolName("a__b", "c"));
    expect(hashedMcpToolName("s", "t".repeat(200))).toHaveLength(MAX_TOOL_NAME_LENGTH);
  });

  it("only ever produces names providers accept", () => {
    for (const [server, tool] of [
      ["x", "y"],
      ["ser ver", "to.ol"],
      ["s".repeat(70), "t"],
      ["s", "😀".repeat(40)],
    ]) {
      expect(mcpToolName(server as string, tool as string)).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    }
  });
});
