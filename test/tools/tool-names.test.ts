import { describe, expect, it } from "vitest";
import { CANONICAL_TOOL_NAMES, classifyToolName, mapToolNames } from "../../src/tools/tool-names.ts";

describe("mapToolNames", () => {
  it.each([
    [["Read", "read_file", "view"], "read"],
    [["Bash", "shell", "run_terminal_cmd"], "bash"],
    [["Write", "write_file", "create_file"], "write"],
    [["Edit", "MultiEdit", "str_replace", "apply_patch"], "edit"],
    [["Grep", "search"], "grep"],
    [["Glob", "find"], "glob"],
    [["LS", "list_dir"], "list"],
    [["Task", "Agent"], "task"],
  ])("maps %j onto %s", (names, canonical) => {
    expect(mapToolNames(names)).toEqual({ tools: [canonical], unknown: [] });
  });

  it("keeps canonical names, case-insensitively", () => {
    expect(mapToolNames(CANONICAL_TOOL_NAMES.map((n) => n.toUpperCase()))).toEqual({
      tools: [...CANONICAL_TOOL_NAMES],
      unknown: [],
    });
  });

  it("keeps MCP names exactly as written", () => {
    expect(mapToolNames(["mcp__GitHub__create_issue", "mcp__docs"])).toEqual({
      tools: ["mcp__GitHub__create_issue", "mcp__docs"],
      unknown: [],
    });
  });

  it("reports tools we do not have, recognised or not, and never widens", () => {
    expect(mapToolNames(["WebFetch", "WebSearch", "NotebookEdit", "TodoWrite", "Teleport"])).toEqual({
      tools: [],
      unknown: ["WebFetch", "WebSearch", "NotebookEdit", "TodoWrite", "Teleport"],
    });
    expect(classifyToolName("WebSearch").kind).toBe("unsupported");
    expect(classifyToolName("Teleport").kind).toBe("unknown");
  });

  it("drops blanks and duplicates, keeping first-seen order", () => {
    expect(mapToolNames([" Read ", "", "Grep", "read_file", "Grep"])).toEqual({
      tools: ["read", "grep"],
      unknown: [],
    });
  });
});
