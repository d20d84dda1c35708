import type { ScriptedReply } from "../../../testing/scripted-model.ts";
import { grepHits, readLines, type ToolCallRecord } from "./tool-history.ts";

/**
 * What the demo's parent delegates: three `explore` children. Each `next` plays one child's side of
 * the conversation from the tool results it got so far, and its report is composed from what those
 * results really contained, so the demo reports the files on disk, not a canned answer.
 */
export interface ExploreJob {
  description: string;
  prompt: string;
  /** The child's reply number `reply` (0-based), given the calls it made and their results. */
  next(reply: number, history: ToolCallRecord[]): ScriptedReply;
}

const call = (name: string, args: Record<string, unknown>) => ({ name, args });
const results = (history: ToolCallRecord[], name: string) =>
  history.filter((record) => record.name === name && !record.isError);

const layout: ExploreJob = {
  description: "map the source layout",
  prompt:
    "Map the source layout of this repository. List the top-level entries, find every TypeScript source " +
    "file under src/, and for each give its size in lines, what it exports and which local modules it " +
    "imports. Report in at most 12 lines; do not paste code.",
  next(reply, history) {
    if (reply === 0) return { toolCalls: [call("list", {}), call("glob", { pattern: "src/**/*.ts" })] };
    if (reply === 1) {
      const paths = (results(history, "glob")[0]?.content ?? "")
        .split("\n")
        .filter((line) => line.endsWith(".ts"))
        .sort();
      if (paths.length > 0) {
        return {
          text: `Reading the ${paths.length} source files.`,
          toolCalls: paths.map((path) => call("read", { path })),
        };
      }
    }
    return { text: layoutReport(history) };
  },
};

function layoutReport(history: ToolCallRecord[]): string {
  const top = (results(history, "list")[0]?.content ?? "")
    .split("\n")
    .filter((line) => /^ {2}\S/.test(line))
    .map((line) => line.trim());
  const files = results(history, "read").map((record) => {
    const lines = readLines(record.content);
    const exports: string[] = [];
    const imports: string[] = [];
    for (const { text } of lines) {
      const declared = /^export (?:async )?(?:function|const|class|interface|type) (\w+)/.exec(text)?.[1];
      if (declared !== undefined) exports.push(declared);
      const from = /^(?:import|export) .* from "\.\/([^"]+)"/.exec(text)?.[1];
      if (from !== undefined) imports.push(from);
    }
    return { path: String(record.args.path), lines: lines.length, exports, imports };
  });
  if (files.length === 0) return "I found no TypeScript files under src/.";
  const total = files.reduce((sum, file) => sum + file.lines, 0);
  const entry = files.find((file) => file.exports.length === 0 && file.imports.length > 0);
  const rows = files.map((file) => {
    const parts = [
      file.exports.length > 0 ? `exports ${file.exports.join(", ")}` : "",
      file.imports.length > 0
        ? `${file === entry ? "re-exports" : "imports"} ${file.imports.join(", ")}`
        : "",
    ].filter((part) => part !== "");
    return `- ${file.path} (${file.lines} lines): ${parts.join("; ") || "no exports"}`;
  });
  return [
    `${files.length} TypeScript files under src/, ${total} lines in all${entry === undefined ? "" : `; ${entry.path} is the entry point`}.`,
    ...rows,
    top.length > 0 ? `Top level: ${top.join(", ")}.` : "",
  ]
    .filter((line) => line !== "")
    .join("\n");
}

const tests: ExploreJob = {
  description: "find how tests are run",
  prompt:
    "Find out how the tests of this repository are run: the command, the test runner and its " +
    "configuration, the test files and how many tests each has (note skipped or todo tests). " +
    "Cite package.json and config lines. Report in at most 8 lines.",
  next(reply, history) {
    if (reply === 0) {
      return {
        toolCalls: [
          call("read", { path: "package.json" }),
          call("read", { path: "README.md" }),
          call("glob", { pattern: "**/*.test.ts" }),
          call("glob", { pattern: "vitest.config.*" }),
        ],
      };
    }
    if (reply === 1) {
      const config = results(history, "glob")
        .flatMap((record) => record.content.split("\n"))
        .find((line) => /^vitest\.config\.\w+$/.test(line));
      return {
        toolCalls: [
          ...(config === undefined ? [] : [call("read", { path: config })]),
          call("grep", { pattern: "\\bit(\\.\\w+)?\\(", path: "test", output_mode: "content" }),
        ],
      };
    }
    return { text: testsReport(history) };
  },
};

function testsReport(history: ToolCallRecord[]): string {
  const manifest = results(history, "read").find((record) => record.args.path === "package.json");
  const lines: string[] = [];
  if (manifest !== undefined) {
    const numbered = readLines(manifest.content);
    const scripts = numbered.filter(({ text }) => /^\s*"test[^"]*":/.test(text));
    for (const { line, text } of scripts) {
      const [name, command] = [...text.matchAll(/"([^"]+)"/g)].map((match) => match[1]);
      const run = name === "test" ? "npm test" : `npm run ${name}`;
      lines.push(`\`${run}\` runs \`${command}\` (package.json:${line}).`);
    }
  }
  const readme = readLines(results(history, "read").find((r) => r.args.path === "README.md")?.content ?? "");
  const documented = readme.find(({ text }) => /\bnpm test\b/.test(text));
  if (documented !== undefined) lines.push(`README.md:${documented.line} documents \`npm test\`.`);
  const config = results(history, "read").find((record) => String(record.args.path).startsWith("vitest"));
  const include = readLines(config?.content ?? "").find(({ text }) => text.includes("include"));
  if (config !== undefined && include !== undefined) {
    lines.push(`Runner: vitest; ${config.args.path}:${include.line} has \`${include.text.trim()}\`.`);
  }
  const hits = grepHits(results(history, "grep")[0]?.content ?? "");
  const perFile = new Map<string, { tests: number; todo: string[] }>();
  for (const hit of hits) {
    const file = perFile.get(hit.path) ?? { tests: 0, todo: [] };
    if (/\bit\.(todo|skip)\(/.test(hit.text)) file.todo.push(`${hit.path}:${hit.line}`);
    else file.tests++;
    perFile.set(hit.path, file);
  }
  const files = [...perFile.entries()].map(
    ([path, file]) =>
      `${path} (${file.tests} tests${file.todo.length > 0 ? `, ${file.todo.length} todo at ${file.todo.join(", ")}` : ""})`,
  );
  const count = [...perFile.values()].reduce((sum, file) => sum + file.tests, 0);
  if (files.length > 0) lines.push(`${count} tests in ${files.length} files: ${files.join("; ")}.`);
  return lines.length > 0 ? lines.join("\n") : "I could not find how the tests are run.";
}

const todos: ExploreJob = {
  description: "find TODO/FIXME and the bug",
  prompt:
    "Find every TODO, FIXME, XXX and HACK comment in this repository, and investigate the code each " +
    "FIXME points at: is it a real bug, and do the tests cover it? Report each marker as path:line with " +
    "its text, and the bug with the exact line and the fix. At most 10 lines.",
  next(reply, history) {
    if (reply === 0) {
      return { toolCalls: [call("grep", { pattern: "TODO|FIXME|XXX|HACK", output_mode: "content" })] };
    }
    if (reply === 1) {
      const fixmes = grepHits(results(history, "grep")[0]?.content ?? "").filter((hit) =>
        hit.text.includes("FIXME"),
      );
      if (fixmes.length > 0) {
        return {
          text: `${fixmes.length} FIXME found; reading the code around it.`,
          toolCalls: fixmes.map((hit) =>
            call("read", { path: hit.path, offset: Math.max(1, hit.line - 6), limit: 12 }),
          ),
        };
      }
    }
    if (reply === 2) {
      // The `case "…":` above a FIXME names the feature; look for tests of it.
      const fixme = grepHits(results(history, "grep")[0]?.content ?? "").find((hit) =>
        hit.text.includes("FIXME"),
      );
      const above = readLines(results(history, "read")[0]?.content ?? "").filter(
        ({ line }) => fixme !== undefined && line < fixme.line,
      );
      const feature = above.flatMap(({ text }) => /case "(\w+)":/.exec(text)?.slice(1) ?? []).at(-1);
      if (feature !== undefined) {
        return { toolCalls: [call("grep", { pattern: feature, path: "test", output_mode: "content" })] };
      }
    }
    return { text: todosReport(history) };
  },
};

function todosReport(history: ToolCallRecord[]): string {
  const [markers, tests] = results(history, "grep").map((record) => grepHits(record.content));
  const hits = markers ?? [];
  if (hits.length === 0) return "No TODO, FIXME, XXX or HACK comments in the repository.";
  const kind = (text: string) => /TODO|FIXME|XXX|HACK/.exec(text)?.[0] ?? "TODO";
  const counts = new Map<string, number>();
  for (const hit of hits) counts.set(kind(hit.text), (counts.get(kind(hit.text)) ?? 0) + 1);
  const lines = [
    `${hits.length} markers: ${[...counts.entries()].map(([name, n]) => `${n} ${name}`).join(", ")}.`,
  ];
  for (const hit of hits.filter((h) => kind(h.text) === "FIXME")) {
    const around = readLines(results(history, "read").find((r) => r.args.path === hit.path)?.content ?? "");
    const condition = around.find(({ line, text }) => line > hit.line && /\bif \(/.test(text));
    const note = hit.text.replace(/^.*FIXME:?\s*/, "");
    if (condition === undefined) {
      lines.push(`FIXME ${hit.path}:${hit.line}: ${note}`);
      continue;
    }
    const code = condition.text.trim().replace(/\s*return .*$/, "");
    const fix = code.includes(" > ") ? ` The fix: \`${code.replace(" > ", " >= ")}\`.` : "";
    lines.push(
      `Bug (FIXME ${hit.path}:${hit.line}, ${note}) — ${hit.path}:${condition.line} tests \`${code}\`.${fix}`,
    );
    const covered = (tests ?? []).map(
      (t) => `${t.path}:${t.line}${/\.todo\(/.test(t.text) ? " (todo)" : ""}`,
    );
    if (covered.length > 0) lines.push(`Tests touching it: ${covered.join(", ")}.`);
  }
  for (const hit of hits.filter((h) => kind(h.text) !== "FIXME")) {
    lines.push(`- ${hit.path}:${hit.line} ${hit.text.trim().replace(/^\/\/\s*/, "")}`);
  }
  return lines.join("\n");
}

/** The three children, in the order the parent starts them. */
export const EXPLORE_JOBS: readonly ExploreJob[] = [layout, tests, todos];
