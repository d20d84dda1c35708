import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { formatDiagnostics } from "../../src/agents/diagnostics.ts";
import { loadAgentFolder } from "../../src/agents/discover.ts";
import { describeNeeding } from "../support/components.ts";

/**
 * 360 real Claude Code agent files from two public collections (MIT; each folder keeps its LICENSE and
 * SOURCE.txt), kept in the repository so every checkout and CI has them. Every file must load or be
 * reported; none may get more tools than it listed.
 */
const corpus = fileURLToPath(new URL("./fixtures/corpus/agent-files", import.meta.url));

/** Measured when the loader was written: every file of the corpus loads (8 of them only leniently). */
const MIN_LOADED = 360;
const MIN_FILES = 360;

describeNeeding(
  {
    present: existsSync(corpus),
    what: "the agent-file corpus",
    missing: `the agent-file corpus is missing from ${corpus}`,
  },
  "agent file corpus",
  () => {
    it("loads every file or reports it, never throws, and never widens tools", async () => {
      const results = await loadAgentFolder({
        dir: corpus,
        format: "claude",
        kind: "project",
        recursive: true,
        extension: ".md",
        baseDir: corpus,
      });
      const diagnostics = results.flatMap((r) => r.diagnostics);
      const loaded = results.filter((r) => r.definition !== undefined);
      const count = (severity: string) => diagnostics.filter((d) => d.severity === severity).length;
      const lenient = diagnostics.filter((d) => d.action === "read it with the lenient parser").length;
      console.log(
        `corpus: ${results.length} files, ${loaded.length} loaded (${lenient} leniently), ` +
          `${results.length - loaded.length} reported; ${count("error")} errors, ${count("warning")} warnings, ` +
          `${count("info")} info\n${formatDiagnostics(diagnostics, { cwd: corpus, hideInfo: true })}`,
      );

      expect(results.length).toBeGreaterThanOrEqual(MIN_FILES);
      expect(loaded.length).toBeGreaterThanOrEqual(MIN_LOADED);
      for (const result of results) {
        if (result.definition === undefined) {
          expect(result.diagnostics.some((d) => d.severity === "error" && d.file === result.file)).toBe(true);
        }
      }
      expect(diagnostics.filter((d) => d.message.startsWith("internal error"))).toEqual([]);

      let restricted = 0;
      for (const { file, definition } of loaded) {
        const listed = listedTools(readFileSync(file, "utf8"));
        if (listed === undefined) {
          expect(definition?.tools, file).toBeUndefined();
          continue;
        }
        restricted++;
        expect(definition?.tools, file).toBeDefined();
        expect([...(definition?.tools ?? [])].sort(), file).toEqual(grantedBy(listed));
      }
      expect(restricted).toBeGreaterThanOrEqual(170);

      // Files strict YAML rejects keep their description whole, unquoted ": " and all.
      const lenientFiles = new Set(
        diagnostics.filter((d) => d.action === "read it with the lenient parser").map((d) => d.file),
      );
      expect(lenientFiles.size).toBeGreaterThanOrEqual(8);
      for (const { file, definition } of loaded.filter((r) => lenientFiles.has(r.file))) {
        const written = /^description: (.*)$/m.exec(readFileSync(file, "utf8"))?.[1]?.trim();
        expect(definition?.description, file).toBe(written);
      }
    });
  },
);

/**
 * What the Claude Code tool names of the corpus grant here, written out by hand rather than with the
 * loader's own mapper, so a wrong entry there cannot pass: the six file and shell tools, `Agent` as
 * `task`, MCP names as written; everything else (WebFetch, TaskGet, …) grants nothing.
 */
const CLAUDE_CODE_TOOLS: Readonly<Record<string, string>> = {
  Read: "read",
  Write: "write",
  Edit: "edit",
  MultiEdit: "edit",
  Bash: "bash",
  Grep: "grep",
  Glob: "glob",
  LS: "list",
  Agent: "task",
  Task: "task",
};

function grantedBy(listed: readonly string[]): string[] {
  const granted = listed.flatMap((name) =>
    name.startsWith("mcp__")
      ? [name]
      : Object.hasOwn(CLAUDE_CODE_TOOLS, name)
        ? [CLAUDE_CODE_TOOLS[name]!]
        : [],
  );
  return [...new Set(granted)].sort();
}

/** The `tools:` line as written, read independently of the loader (the corpus only uses one-line lists). */
function listedTools(text: string): string[] | undefined {
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
  const line = /^tools:(.*)$/m.exec(frontMatter)?.[1];
  if (line === undefined) return undefined;
  return line
    .trim()
    .replace(/^\[|\]$/g, "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}
