import { isAbsolute, relative } from "node:path";

/**
 * A problem found while loading agent definitions. Loading never throws on a bad file: it records what
 * was wrong and what was done about it, and `agentry agents check` prints the lot.
 */
export interface Diagnostic {
  severity: "error" | "warning" | "info";
  /** The file the problem is in (absolute when it came from discovery), or an origin such as `--agents`. */
  file: string;
  /** 1-based line in `file`, when known. */
  line?: number;
  /** What is wrong. */
  message: string;
  /** What the loader did about it: "skipped the file", "ignored key skills", "dropped unknown tool X". */
  action: string;
}

export type Severity = Diagnostic["severity"];

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function diagnostic(
  severity: Severity,
  file: string,
  message: string,
  action: string,
  line?: number,
): Diagnostic {
  return line === undefined ? { severity, file, message, action } : { severity, file, line, message, action };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

export interface FormatDiagnosticsOptions {
  /** Paths under this directory are printed relative to it. */
  cwd?: string;
  /** Leave out `info` diagnostics (default false). */
  hideInfo?: boolean;
}

/**
 * Compiler-style lines, sorted by file and line, then a summary:
 *
 *     .claude/agents/x.md:3: warning: front matter is not valid YAML … → read it leniently
 *     1 error, 1 warning, 0 info
 */
export function formatDiagnostics(
  diagnostics: readonly Diagnostic[],
  options: FormatDiagnosticsOptions = {},
): string {
  const shown = diagnostics.filter((d) => !(options.hideInfo === true && d.severity === "info"));
  const sorted = [...shown].sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
  );
  const lines = sorted.map((d) => {
    const file = displayPath(d.file, options.cwd);
    const where = d.line === undefined ? file : `${file}:${d.line}`;
    return `${where}: ${d.severity}: ${d.message} → ${d.action}`;
  });
  const count = (severity: Severity): number => diagnostics.filter((d) => d.severity === severity).length;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
  lines.push(
    `${plural(count("error"), "error")}, ${plural(count("warning"), "warning")}, ${count("info")} info`,
  );
  return lines.join("\n");
}

function displayPath(file: string, cwd: string | undefined): string {
  if (cwd === undefined || !isAbsolute(file)) return file;
  const rel = relative(cwd, file);
  return rel.startsWith("..") ? file : rel;
}
