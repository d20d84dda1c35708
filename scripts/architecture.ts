// The layer check of `npm run check`: ARCHITECTURE.md's tables are its only source of rules.
//   node scripts/architecture.ts [<root>]    exit 0 when the tree keeps them, 1 with each problem
// - the layer table → dependency-cruiser rules: per layer, what it may import; no cycle anywhere
//   (type-only imports included); no import that does not resolve;
// - the public-files table → a layer's faces: a module of another layer imports only those files;
// - the package table → which layers may import which npm packages (others: none);
// - every module of src/ belongs to a row, and a file past MAX_LINES has a row in the long-files table;
// - no file of src/ but the helper itself spells out `e instanceof Error ? e.message : String(e)`.
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { ICruiseResult, IForbiddenRuleType } from "dependency-cruiser";

/** Past this, a source file must say in ARCHITECTURE.md why it is not split. */
export const MAX_LINES = 400;

export interface Layer {
  /** `cli`, `model` … or `index.ts` for the file `src/index.ts`. */
  name: string;
  /** What it may import: layer names, or every layer. */
  mayImport: readonly string[] | "all";
}

/** The files of a layer that other layers may import: paths inside its folder, or every file. */
export type Faces = readonly string[] | "all";

export interface PackageRule {
  /** npm names; a trailing `/*` is a scope (`@ai-sdk/*`). */
  packages: readonly string[];
  /** Folders under `src/` (`model/providers`), or every layer. */
  importers: readonly string[] | "all";
}

export interface Architecture {
  layers: readonly Layer[];
  /** Layer name (`agent`) → its public files (`config.ts`, `session/session.ts`). */
  faces: ReadonlyMap<string, Faces>;
  packages: readonly PackageRule[];
  /** `src/…` path → why it stays whole. */
  longFiles: ReadonlyMap<string, string>;
}

/** A table of ARCHITECTURE.md that is missing or that cannot be read: the check cannot run. */
export class ArchitectureTableError extends Error {
  override readonly name = "ArchitectureTableError";
}

/** Reads the four tables of ARCHITECTURE.md. Throws `ArchitectureTableError` on anything unclear. */
export function parseArchitecture(markdown: string): Architecture {
  const tables = markdownTables(markdown);
  const layerRows = tableWith(tables, "layer", "may import");
  const layers = layerRows.map((row): Layer => {
    const [path] = codeSpans(row.layer);
    const name =
      /^src\/([a-z][a-z0-9-]*)\/$/.exec(path ?? "")?.[1] ?? (path === "src/index.ts" ? "index.ts" : "");
    if (!name)
      throw new ArchitectureTableError(
        `layer table: "${row.layer}" is not \`src/<folder>/\` or \`src/index.ts\``,
      );
    return { name, mayImport: targets(row["may import"] ?? "", `layer ${name}`) };
  });
  const names = new Set(layers.map((layer) => layer.name));
  for (const layer of layers) {
    if (layer.mayImport === "all") continue;
    for (const target of layer.mayImport)
      if (!names.has(target) || target === "index.ts")
        throw new ArchitectureTableError(
          `layer table: ${layer.name} may import "${target}", which has no row`,
        );
  }
  const faces = facesTable(tableWith(tables, "layer", "public files"), layers);
  const packages = tableWith(tables, "package", "may be imported by").map(
    (row): PackageRule => ({
      packages: codeSpans(row.package),
      importers: targets(row["may be imported by"] ?? "", `package ${row.package}`),
    }),
  );
  const longFiles = new Map(
    tableWith(tables, "file", "why it stays whole").map((row) => {
      const [file] = codeSpans(row.file);
      const why = (row["why it stays whole"] ?? "").trim();
      if (!file?.startsWith("src/") || !why)
        throw new ArchitectureTableError(
          `long-files table: "${row.file}" needs a \`src/…\` path and a reason`,
        );
      return [file, why] as const;
    }),
  );
  return { layers, faces, packages, longFiles };
}

/** Every folder layer has one row; each lists paths inside its folder, `*` (all) or — (none). */
function facesTable(rows: readonly Row[], layers: readonly Layer[]): Map<string, Faces> {
  const faces = new Map<string, Faces>();
  for (const row of rows) {
    const [path] = codeSpans(row.layer);
    const name = /^src\/([a-z][a-z0-9-]*)\/$/.exec(path ?? "")?.[1];
    if (!name || !layers.some((layer) => layer.name === name))
      throw new ArchitectureTableError(
        `public-files table: "${row.layer}" is not \`src/<folder>/\` of a layer in the layer table`,
      );
    if (faces.has(name)) throw new ArchitectureTableError(`public-files table: ${name} has two rows`);
    const cell = row["public files"] ?? "";
    const files = targets(cell, `public files of ${name}`);
    if (files !== "all")
      for (const file of files)
        if (!/^[a-z0-9][a-z0-9./-]*\.(ts|mts|js|mjs)$/.test(file) || file.split("/").includes(".."))
          throw new ArchitectureTableError(
            `public-files table: ${name} lists "${file}", which is not a source file's path inside src/${name}/`,
          );
    faces.set(name, files);
  }
  for (const layer of layers)
    if (layer.name !== "index.ts" && !faces.has(layer.name))
      throw new ArchitectureTableError(
        `public-files table: ${layer.name} has no row; list the files other layers may import, or \`*\``,
      );
  return faces;
}

/** dependency-cruiser's `forbidden` rules for the layer and package tables. */
export function forbiddenRules(architecture: Architecture): IForbiddenRuleType[] {
  const rules: IForbiddenRuleType[] = [
    {
      name: "no-cycle",
      comment: "No import cycle, type-only imports included: a layer reads top to bottom.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "no-unresolvable",
      comment: "An import that does not resolve is a file moved without its importers.",
      severity: "error",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
  ];
  for (const layer of architecture.layers) {
    if (layer.mayImport === "all") continue;
    const allowed = layer.name === "index.ts" ? layer.mayImport : [layer.name, ...layer.mayImport];
    rules.push({
      name: `layer-${layer.name}`,
      comment: `${layerPath(layer.name)} may import only ${allowed.join(", ") || "its own folder"} (ARCHITECTURE.md).`,
      severity: "error",
      from: { path: layerPattern(layer.name) },
      to: {
        path: "^src/",
        pathNot: allowed.length > 0 ? `^src/(${allowed.map(escapeRegExp).join("|")})/` : "^$",
      },
    });
  }
  for (const [name, files] of architecture.faces) {
    if (files === "all") continue;
    rules.push({
      name: `face-${name}`,
      comment:
        files.length > 0
          ? `Outside src/${name}/, import only its public files: ${files.join(", ")} (ARCHITECTURE.md).`
          : `Nothing outside src/${name}/ imports it (ARCHITECTURE.md).`,
      severity: "error",
      from: { path: "^src/", pathNot: layerPattern(name) },
      to:
        files.length > 0
          ? {
              path: layerPattern(name),
              pathNot: `^src/${escapeRegExp(name)}/(${files.map(escapeRegExp).join("|")})$`,
            }
          : { path: layerPattern(name) },
    });
  }
  const listed: string[] = [];
  for (const rule of architecture.packages) {
    const pattern = rule.packages.map(packagePattern).join("|");
    listed.push(pattern);
    if (rule.importers === "all") continue;
    rules.push({
      name: `package-${rule.packages.join("-")}`,
      comment: `${rule.packages.join(", ")} only from ${rule.importers.join(", ")} (ARCHITECTURE.md).`,
      severity: "error",
      from: { path: "^src/", pathNot: `^src/(${rule.importers.map(escapeRegExp).join("|")})/` },
      to: { path: `(^|/)node_modules/(${pattern})/` },
    });
  }
  rules.push({
    name: "package-unlisted",
    comment: "A package of src/ needs a row in ARCHITECTURE.md's package table.",
    severity: "error",
    from: { path: "^src/" },
    to: { path: "(^|/)node_modules/", pathNot: `(^|/)node_modules/(${listed.join("|")})/` },
  });
  return rules;
}

/**
 * Cruises `root/src` with the rules of `root/ARCHITECTURE.md` and measures its files. Returns one
 * line per problem (empty: the tree keeps the architecture).
 */
export async function checkArchitecture(root: string): Promise<string[]> {
  const architecture = parseArchitecture(await readFile(join(root, "ARCHITECTURE.md"), "utf8"));
  const { cruise } = await import("dependency-cruiser");
  const cwd = process.cwd();
  // dependency-cruiser reads and reports paths relative to the working directory.
  process.chdir(root);
  let result: ICruiseResult;
  try {
    const reported = await cruise(
      ["src"],
      {
        ruleSet: { forbidden: forbiddenRules(architecture) },
        // TypeScript 7 has no API dependency-cruiser can use yet; swc parses our TypeScript.
        parser: "swc",
        tsPreCompilationDeps: true,
        doNotFollow: { path: "node_modules" },
        validate: true,
      },
      {
        // Packages' `exports` subpaths (`@modelcontextprotocol/client/stdio`), as Node resolves them.
        conditionNames: ["import", "node", "default"],
        exportsFields: ["exports"],
      },
    );
    if (typeof reported.output === "string") throw new Error("dependency-cruiser gave text, not a result");
    result = reported.output;
  } finally {
    process.chdir(cwd);
  }
  const problems = result.summary.violations.map(
    (violation) =>
      `${violation.rule.name}: ${violation.from} → ${violation.to}${cycleText(violation.cycle)}` +
      `${ruleComment(result, violation.rule.name)}`,
  );
  const sources = result.modules.map((module) => module.source).filter((source) => source.startsWith("src/"));
  for (const source of sources)
    if (!architecture.layers.some((layer) => new RegExp(layerPattern(layer.name)).test(source)))
      problems.push(
        `layer-unlisted: ${source} is in no layer of ARCHITECTURE.md's table; add a row for its folder`,
      );
  const files = await sourceFiles(root);
  problems.push(...longFileProblems(files, architecture.longFiles));
  problems.push(...longErrorMessages(files));
  return problems;
}

/** Public files the table lists that do not exist (a file moved or removed without its row). */
export async function staleFaces(root: string, architecture: Architecture): Promise<string[]> {
  const problems: string[] = [];
  for (const [name, files] of architecture.faces) {
    if (files === "all") continue;
    for (const file of files) {
      const path = `src/${name}/${file}`;
      const found = await readFile(join(root, path)).then(
        () => true,
        () => false,
      );
      if (!found)
        problems.push(
          `face-missing: ${path} is a public file of src/${name}/ in ARCHITECTURE.md but does not exist; update the row`,
        );
    }
  }
  return problems;
}

interface SourceFile {
  /** Relative to the root, `/`-separated: `src/tools/tool.ts`. */
  path: string;
  text: string;
}

async function sourceFiles(root: string): Promise<SourceFile[]> {
  const entries = await readdir(join(root, "src"), { recursive: true, withFileTypes: true });
  const files: SourceFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !/\.(ts|mts|mjs|js)$/.test(entry.name)) continue;
    const path = relative(root, join(entry.parentPath, entry.name)).split(sep).join("/");
    files.push({ path, text: await readFile(join(root, path), "utf8") });
  }
  // In name order, so that the problems come in the same order on every file system.
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function longFileProblems(files: readonly SourceFile[], reasons: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const { path: file, text } of files) {
    const lines = text.split("\n").length - 1;
    if (lines <= MAX_LINES) continue;
    seen.add(file);
    if (!reasons.has(file))
      problems.push(
        `long-file: ${file} has ${lines} lines (limit ${MAX_LINES}); split it by responsibility, or say why not in ARCHITECTURE.md's long-files table`,
      );
  }
  for (const file of reasons.keys())
    if (!seen.has(file))
      problems.push(
        `long-file: ${file} has a row in the long-files table but is not over ${MAX_LINES} lines; remove the row`,
      );
  return problems;
}

/** The one file that may spell the long form: the helper everything else calls. */
export const ERROR_MESSAGE_FILE = "src/text/error-message.ts";

/** `e instanceof Error ? e.message : String(e)`, any name, any spacing, over lines too. */
const LONG_ERROR_MESSAGE =
  /([A-Za-z_$][\w$.]*)\s+instanceof\s+Error\s*\?\s*\1\.message\s*:\s*String\(\s*\1\s*\)/g;

/** Every place outside the helper that spells out what `errorMessage()` does (issue 27: the form multiplied). */
function longErrorMessages(files: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  for (const { path, text } of files) {
    if (path === ERROR_MESSAGE_FILE) continue;
    for (const match of text.matchAll(LONG_ERROR_MESSAGE)) {
      const line = text.slice(0, match.index).split("\n").length;
      problems.push(
        `error-message: ${path}:${line} spells out \`${match[1]} instanceof Error ? ${match[1]}.message : String(${match[1]})\`; use errorMessage(${match[1]}) from ${ERROR_MESSAGE_FILE}`,
      );
    }
  }
  return problems;
}

type Row = Record<string, string>;

interface Table {
  /** The header cells, lower-cased. */
  header: string[];
  rows: Row[];
}

/** Every table of a markdown text, its rows keyed by the header cells. */
function markdownTables(markdown: string): Table[] {
  const tables: Table[] = [];
  let lines: string[] = [];
  for (const line of [...markdown.split("\n"), ""]) {
    if (line.trimStart().startsWith("|")) {
      lines.push(line);
      continue;
    }
    if (lines.length >= 2) {
      const [first = [], , ...body] = lines.map(cells);
      const header = first.map((key) => key.toLowerCase());
      tables.push({
        header,
        rows: body.map((row) => Object.fromEntries(header.map((key, i) => [key, row[i] ?? ""]))),
      });
    }
    lines = [];
  }
  return tables;
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim());
}

/** The rows of the table whose header starts with `first` and ends with `last`. */
function tableWith(tables: Table[], first: string, last: string): Row[] {
  const found = tables.find((table) => table.header[0] === first && table.header.at(-1) === last);
  if (!found)
    throw new ArchitectureTableError(
      `ARCHITECTURE.md has no ${first} table (a header "| ${first} | … | ${last} |"); the layer check cannot run without it`,
    );
  return found.rows;
}

function codeSpans(text: string | undefined): string[] {
  return [...(text ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");
}

function targets(cell: string, where: string): readonly string[] | "all" {
  const spans = codeSpans(cell);
  if (spans.includes("*")) return "all";
  if (spans.length === 0 && cell.trim() !== "—")
    throw new ArchitectureTableError(`${where}: "${cell}" lists no \`layer\`, \`*\` or —`);
  return spans;
}

function layerPath(name: string): string {
  return name === "index.ts" ? "src/index.ts" : `src/${name}/`;
}

function layerPattern(name: string): string {
  return name === "index.ts" ? "^src/index\\.ts$" : `^src/${escapeRegExp(name)}/`;
}

function packagePattern(name: string): string {
  return name.endsWith("/*") ? `${escapeRegExp(name.slice(0, -2))}/[^/]+` : escapeRegExp(name);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function cycleText(cycle: readonly { name: string }[] | undefined): string {
  return cycle && cycle.length > 0 ? ` (cycle: ${cycle.map((step) => step.name).join(" → ")})` : "";
}

function ruleComment(result: ICruiseResult, name: string): string {
  const rule = result.summary.ruleSetUsed?.forbidden?.find((candidate) => candidate.name === name);
  return rule?.comment ? `\n    ${rule.comment}` : "";
}

if (import.meta.main) {
  const root = process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url));
  const problems = await checkArchitecture(root);
  problems.push(
    ...(await staleFaces(root, parseArchitecture(await readFile(join(root, "ARCHITECTURE.md"), "utf8")))),
  );
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (problems.length > 0) {
    process.stderr.write(`\nThe layer check found ${problems.length} problem(s); see ARCHITECTURE.md.\n`);
    process.exit(1);
  }
}
