import { describe, expect, it } from "vitest";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";
import { MAX_AGENT_FILE_BYTES } from "../../../src/agents/loaders/size-limits.ts";

/**
 * `loadAgentFile` is the library's entry for one agent file's text (discovery refuses a large file by
 * its size on disk before reading it; a library caller hands the text over itself).
 */

const PATH = "/p/.claude/agents/a.md";

/** A Claude Code agent file of exactly `length` characters. */
function fileOf(length: number): string {
  const head = "---\ndescription: d\n---\n";
  return head + "x".repeat(length - head.length);
}

describe("the size limit", () => {
  it("reads a file of exactly 1 MiB", () => {
    const { definition, diagnostics } = loadAgentFile(fileOf(MAX_AGENT_FILE_BYTES), PATH, {
      format: "claude",
    });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(definition?.prompt).toHaveLength(MAX_AGENT_FILE_BYTES - "---\ndescription: d\n---\n".length);
  });

  it("counts bytes, not characters: a file of 2-byte letters refuses half as many", () => {
    const head = "---\ndescription: d\n---\n";
    const text = head + "é".repeat(Math.floor((MAX_AGENT_FILE_BYTES - head.length) / 2) + 1);
    expect(text.length).toBeLessThan(MAX_AGENT_FILE_BYTES);
    const { definition, diagnostics } = loadAgentFile(text, PATH, { format: "claude" });
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([expect.objectContaining({ severity: "error", action: "skipped the file" })]);
  });

  it("refuses one character more without reading it", () => {
    const { definition, diagnostics } = loadAgentFile(fileOf(MAX_AGENT_FILE_BYTES + 1), PATH, {
      format: "claude",
    });
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        severity: "error",
        file: PATH,
        message: "is 1024 KiB; agent files are read up to 1024 KiB",
        action: "skipped the file",
      },
    ]);
  });
});

describe("a loader that throws", () => {
  it("is an error diagnostic for that file, not an exception (a JavaScript caller passing no text)", () => {
    const text = null as unknown as string;
    const { definition, diagnostics } = loadAgentFile(text, PATH, { format: "claude" });
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        severity: "error",
        file: PATH,
        message: expect.stringMatching(/^internal error while loading: .*null/),
        action: "skipped the file",
      },
    ]);
  });
});
