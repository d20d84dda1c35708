import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { parse } from "yaml";
import { formatDiagnostics } from "../../src/agents/diagnostics.ts";
import { loadAgentFolder } from "../../src/agents/discover.ts";
import { effectiveAccess } from "../../src/agents/effective-access.ts";
import { describeNeeding } from "../support/components.ts";

/**
 * 421 real Claude Code agent files from three public collections (MIT; each folder keeps its LICENSE and
 * SOURCE.txt), kept in the repository so every checkout and CI has them. Every file must load or be
 * reported; none may get more tools than it listed.
 */
const corpus = fileURLToPath(new URL("./fixtures/corpus/agent-files", import.meta.url));
/** OpenCode agent files of a public collection (Apache-2.0, its LICENSE and SOURCE.txt beside them). */
const openCodeCorpus = fileURLToPath(new URL("./fixtures/corpus/opencode-files", import.meta.url));

/**
 * Every file of the first two collections loads (8 of them only leniently); of claude-flow's 61, the 7
 * whose `capabilities` map holds allowed and restricted tools fail, and 2 have no front matter.
 */
const MIN_LOADED = 412;
const MIN_FILES = 421;

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

      // claude-flow's `capabilities` lists are what the agent is good at: read into the description.
      // Where the list is a map holding allowed and restricted tools, the file fails instead.
      let described = 0;
      for (const result of results.filter((r) => r.file.includes("ruvnet-claude-flow"))) {
        const capabilities = frontMatter(readFileSync(result.file, "utf8")).capabilities;
        if (Array.isArray(capabilities) && capabilities.every((item) => typeof item === "string")) {
          expect(result.definition?.description, result.file).toContain(
            `Capabilities: ${capabilities.join(", ")}.`,
          );
          described++;
        } else if (capabilities !== undefined) {
          expect(result.definition, result.file).toBeUndefined();
        }
      }
      expect(described).toBeGreaterThanOrEqual(41);
    });

    it("reads OpenCode files: what a permission denies (grep, glob, list and write included) is never granted", async () => {
      const results = await loadAgentFolder({
        dir: openCodeCorpus,
        format: "opencode",
        kind: "project",
        recursive: true,
        extension: ".md",
        baseDir: openCodeCorpus,
      });
      expect(results.length).toBeGreaterThanOrEqual(16);
      const loaded = results.filter((r) => r.definition !== undefined);
      expect(loaded.length).toBeGreaterThanOrEqual(11);
      for (const result of results) {
        if (result.definition === undefined) {
          expect(
            result.diagnostics.some((d) => d.severity === "error"),
            result.file,
          ).toBe(true);
          continue;
        }
        const permission = frontMatter(readFileSync(result.file, "utf8")).permission;
        const denied = Object.entries(isObject(permission) ? permission : {})
          .filter(([, action]) => action === "deny")
          .map(([name]) => name);
        const access = effectiveAccess(result.definition);
        for (const name of denied.filter((n) => ["bash", "grep", "glob", "list", "write"].includes(n)))
          expect(access.deniedTools, `${result.file}: ${name}`).toContain(name);
        if (denied.includes("edit")) expect(access.readOnly, result.file).toBe(true);
        if (denied.includes("read")) expect(access.deniedTools, result.file).toContain("read");
      }
      // A write allowed only under some folder is a limit agentry's write tool cannot follow: those fail.
      const writeOnlyUnder = results.filter((r) => {
        const write = frontMatter(readFileSync(r.file, "utf8")).permission;
        return isObject(write) && isObject(write.write);
      });
      expect(writeOnlyUnder.length).toBeGreaterThanOrEqual(3);
      for (const result of writeOnlyUnder) expect(result.definition, result.file).toBeUndefined();
    });
  },
);

/** The front matter as plain YAML, read apart from the loader. */
function frontMatter(text: string): Record<string, unknown> {
  const block = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
  const data: unknown = parse(block, { uniqueKeys: false, logLevel: "silent" });
  return isObject(data) ? data : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

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
