import { isMap, isScalar, LineCounter, parseDocument } from "yaml";
import { type Diagnostic, diagnostic } from "./diagnostics.ts";
import { type LenientProblem, parseLenientYaml } from "./lenient-yaml.ts";
import { isRestrictive, mentionsRestriction } from "./loaders/restriction-keys.ts";
import { MAX_FRONT_MATTER_CHARS } from "./loaders/size-limits.ts";
import { holdsLoop } from "./yaml-loop.ts";

/** A Markdown file split into its front matter keys and its body. */
export interface FrontMatter {
  /** False when the file does not start with a `---` line. */
  present: boolean;
  /** Top-level keys; empty when there is no front matter. */
  data: Record<string, unknown>;
  /** 1-based file line of each top-level key, for diagnostics. */
  keyLines: Record<string, number>;
  /** The Markdown after the closing `---`, trimmed. */
  body: string;
  /** Problems found; an `error` means the front matter could not be read at all. */
  diagnostics: Diagnostic[];
}

const OPENING = /^---[ \t]*$/;
const CLOSING = /^---[ \t]*$/;
/** YAML's document end: YAML reads nothing after it. */
const DOCUMENT_END = /^\.\.\.[ \t]*(?:#.*)?$/;

/**
 * Strict YAML first (the `yaml` package); when that fails — agent files in the wild hold unquoted
 * `: ` inside descriptions, tabs, stray lines — a lenient line-based reader and a warning that says
 * where strict parsing stopped.
 */
export function parseFrontMatter(text: string, file: string): FrontMatter {
  const lines = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  if (!OPENING.test(lines[0] ?? "")) {
    return { present: false, data: {}, keyLines: {}, body: lines.join("\n").trim(), diagnostics: [] };
  }
  let close = lines.findIndex((line, index) => index > 0 && CLOSING.test(line));
  const end = lines.findIndex(
    (line, index) => index > 0 && (close === -1 || index < close) && DOCUMENT_END.test(line),
  );
  // Front matter closed by YAML's `...` alone (as Pandoc writes it) ends there.
  if (close === -1 && end !== -1) close = end;
  if (close === -1) return unreadable(file, "front matter is not closed (no second `---` line)");
  if (end !== -1 && end < close) {
    const after = lines.slice(end + 1, close).find((line) => line.trim() !== "" && !/^\s*#/.test(line));
    if (after !== undefined) {
      // YAML stops at `...`: what follows (`tools: Read`) would be dropped, and the agent get every tool.
      const at = end + 1 + lines.slice(end + 1, close).indexOf(after) + 1;
      return unreadable(
        file,
        `YAML ends the document at \`...\` (line ${end + 1}), but the front matter goes on to the \`---\` at line ${close + 1}: "${after.trim().slice(0, 60)}" (line ${at}) would not be read, and it may limit the agent; keep one of the two (remove the \`...\` line, or close the front matter there with \`---\`)`,
        end + 1,
      );
    }
  }
  const yamlLines = lines.slice(1, end !== -1 && end < close ? end : close);
  const size = yamlLines.reduce((sum, line) => sum + line.length + 1, 0);
  if (size > MAX_FRONT_MATTER_CHARS) {
    return unreadable(
      file,
      `front matter is ${Math.round(size / 1024)} KiB; agentry reads up to ${MAX_FRONT_MATTER_CHARS / 1024} KiB of it`,
    );
  }
  const body = lines
    .slice(close + 1)
    .join("\n")
    .trim();
  // Front matter starts on file line 2.
  const strict = parseStrict(yamlLines.join("\n"), 2);
  if (strict.ok) {
    const swallowed = swallowedRestrictions(yamlLines, strict.keyLines, 2);
    const diagnostics = swallowed.map((s) =>
      diagnostic(
        "error",
        file,
        `"${s.text.trim()}" reads like the key ${s.key}, but YAML takes it as part of ${s.owner}'s value (an unclosed quote?), and ${s.key} limits what the agent may do`,
        "skipped the file",
        s.line,
      ),
    );
    return { present: true, data: strict.data, keyLines: strict.keyLines, body, diagnostics };
  }
  if (strict.final === true) return unreadable(file, `front matter: ${strict.reason}`, strict.line);

  const lenient = parseLenientYaml(yamlLines, 2);
  const diagnostics = [
    diagnostic(
      "warning",
      file,
      `front matter is not valid YAML: ${strict.reason}`,
      "read it with the lenient parser",
      strict.line,
    ),
    ...lenient.problems.map((p) =>
      limitAtStake(p)
        ? diagnostic(
            "error",
            file,
            p.key === undefined
              ? `${p.message}, and the line may hold a limit on what the agent may do`
              : `${p.message}, and ${p.key} limits what the agent may do`,
            "skipped the file",
            p.line,
          )
        : diagnostic("warning", file, p.message, p.action, p.line),
    ),
  ];
  return { present: true, data: lenient.data, keyLines: lenient.keyLines, body, diagnostics };
}

/** Front matter that is there but cannot be read at all: the file is skipped. */
function unreadable(file: string, problem: string, line = 1): FrontMatter {
  return {
    present: true,
    data: {},
    keyLines: {},
    body: "",
    diagnostics: [diagnostic("error", file, problem, "skipped the file", line)],
  };
}

/**
 * A problem the lenient reader met that touches a restriction: a `tools` given twice, a quoted or
 * mis-indented `permissions:` line it could not read. Guessing there could give the agent more than the
 * file meant, so the file fails instead.
 */
function limitAtStake(problem: LenientProblem): boolean {
  if (problem.key !== undefined) return isRestrictive(problem.key);
  return problem.kind === "unreadable" && mentionsRestriction(problem.text);
}

/**
 * Lines that look like a restriction (`tools: ''`, `  permissionMode: plan`) but that valid YAML read
 * as part of another key's value — a quote left open swallows the keys after it. Read as YAML, the
 * agent would lose the limit its author can see; so the file fails instead. A restriction key's own
 * multi-line value (a flow map over several lines) is not suspect.
 */
function swallowedRestrictions(
  lines: readonly string[],
  keyLines: Record<string, number>,
  firstLine: number,
): Array<{ line: number; key: string; owner: string; text: string }> {
  const owners = new Map(Object.entries(keyLines).map(([key, line]) => [line, key]));
  const found: Array<{ line: number; key: string; owner: string; text: string }> = [];
  let owner: string | undefined;
  // Whether the owner's value starts on its own line as a scalar (quoted or plain) that may run on.
  let scalar = false;
  for (const [index, text] of lines.entries()) {
    const line = index + firstLine;
    const parsedKey = owners.get(line);
    if (parsedKey !== undefined) {
      owner = parsedKey;
      const inline = /:[ \t]*(.*)$/.exec(text)?.[1]?.trim() ?? "";
      scalar = inline !== "" && !/^[|>#]/.test(inline);
      continue;
    }
    const key = /^\s*["']?([A-Za-z_$][\w$.-]*)["']?[ \t]*:(\s|$)/.exec(text)?.[1];
    if (owner === undefined || key === undefined || !isRestrictive(key)) continue;
    // At column 0 it can only be inside another value; indented, only inside a scalar that runs on.
    const topLevel = !/^\s/.test(text);
    if (topLevel || (scalar && !isRestrictive(owner))) found.push({ line, key, owner, text });
  }
  return found;
}

type StrictResult =
  | { ok: true; data: Record<string, unknown>; keyLines: Record<string, number> }
  | { ok: false; reason: string; line: number; final?: true };

function parseStrict(source: string, firstLine: number): StrictResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    const line = lineCounter.linePos(error.pos[0]).line + firstLine - 1;
    return { ok: false, reason: describeYamlError(error.code, error.message), line };
  }
  if (doc.contents === null) return { ok: true, data: {}, keyLines: {} };
  if (!isMap(doc.contents)) {
    return { ok: false, reason: "it is not a list of `key: value` lines", line: firstLine };
  }
  let data: Record<string, unknown>;
  try {
    data = doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  } catch (error) {
    // An alias without its anchor (`tools: *x`) or an alias bomb is only found while converting.
    return { ok: false, reason: (error as Error).message, line: firstLine };
  }
  if (holdsLoop(data))
    return {
      ok: false,
      reason: "an alias names the value it is inside (a loop), which no key can hold: write that value out",
      line: firstLine,
      // The lenient reader would only guess at what the anchors meant.
      final: true,
    };
  const keyLines: Record<string, number> = {};
  for (const pair of doc.contents.items) {
    if (isScalar(pair.key) && pair.key.range) {
      keyLines[String(pair.key.value)] = lineCounter.linePos(pair.key.range[0]).line + firstLine - 1;
    }
  }
  return { ok: true, data, keyLines };
}

function describeYamlError(code: string, message: string): string {
  const short = message.split(" at line ")[0]?.trim() ?? message;
  if (code === "BLOCK_AS_IMPLICIT_KEY" || code === "MULTILINE_IMPLICIT_KEY") {
    return `${short} (an unquoted ": " inside a value?)`;
  }
  return short;
}
