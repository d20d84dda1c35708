import { parse } from "yaml";
import { splitOutsideParentheses } from "../text/split-outside-parentheses.ts";
import { holdsLoop } from "./yaml-loop.ts";

/**
 * A forgiving reader for front matter that strict YAML rejects. It understands what people actually
 * write: `key: value` where the value itself contains `: `, block scalars (`|`, `>`), indented or
 * compact `- item` lists, `[a, b]` inline lists and nested blocks (which it hands back to strict YAML).
 * Anything else at the top level is reported and skipped, never guessed at.
 */

export interface LenientProblem {
  line: number;
  message: string;
  action: string;
  /**
   * `duplicate`: a key given twice; `unreadable`: a line that is no `key: value`; `hidden-key`: a line
   * folded into another key's value that reads like a key of its own. `key` names the key involved.
   */
  kind: "duplicate" | "unreadable" | "hidden-key";
  key?: string;
  /** The line as written. */
  text: string;
}

export interface LenientResult {
  data: Record<string, unknown>;
  keyLines: Record<string, number>;
  problems: LenientProblem[];
}

/** `key: value`, also with the key quoted (`"tools": Read`), which strict YAML's failure must not lose. */
const KEY_LINE = /^(?:"([^"]+)"|'([^']+)'|([A-Za-z_$][\w$.-]*))[ \t]*:(?:[ \t]+(.*)|[ \t]*)$/;
/** A key at the start of a line, at any indentation: what a reader would take for a key. */
const LOOSE_KEY = /^\s*-?\s*["']?([A-Za-z_$][\w$. -]*?)["']?[ \t]*:(?:\s|$)/;
const BLOCK_HEADER = /^([|>])([+-]?)\d*[ \t]*(?:#.*)?$/;

/** `lines` are the front matter lines; `firstLine` is the file line of `lines[0]`. */
export function parseLenientYaml(lines: readonly string[], firstLine: number): LenientResult {
  const data: Record<string, unknown> = {};
  const keyLines: Record<string, number> = {};
  const problems: LenientProblem[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    const fileLine = firstLine + i;
    i++;
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const match = /^\s/.test(line) ? null : KEY_LINE.exec(line);
    if (match === null) {
      problems.push({
        line: fileLine,
        message: `could not read front matter line "${excerpt(line)}"`,
        action: "ignored the line",
        kind: "unreadable",
        text: line,
        ...looseKey(line),
      });
      continue;
    }
    const key = match[1] ?? match[2] ?? match[3] ?? "";
    // `key: # note` has no value on its line: the comment is not one.
    const inline = (match[4] ?? "").trim().replace(/^#.*$/, "");
    const block: string[] = [];
    while (i < lines.length) {
      const next = lines[i] ?? "";
      const continues = next.trim() === "" || /^\s/.test(next) || (inline === "" && /^-(\s|$)/.test(next));
      if (!continues) break;
      block.push(next);
      i++;
    }
    while (block.length > 0 && (block[block.length - 1] ?? "").trim() === "") block.pop();
    if (isPlainContinuation(inline)) {
      // `description: Reviews code\n  tools: Read` folds into the description; say so, for a reader
      // may well have meant a key of its own.
      for (const [offset, next] of block.entries()) {
        const hidden = looseKey(next).key;
        if (hidden !== undefined)
          problems.push({
            line: fileLine + 1 + offset,
            message: `"${excerpt(next)}" is read as part of ${key}, not as key ${hidden}`,
            action: `kept it in ${key}`,
            kind: "hidden-key",
            key: hidden,
            text: next,
          });
      }
    }
    if (Object.hasOwn(data, key)) {
      problems.push({
        line: fileLine,
        message: `key ${key} appears twice`,
        action: `used the value on line ${fileLine}`,
        kind: "duplicate",
        key,
        text: line,
      });
    }
    // Defined, not assigned: a key named `__proto__` must stay a key, not become the object's prototype.
    define(data, key, readValue(inline, block));
    define(keyLines, key, fileLine);
  }
  return { data, keyLines, problems };
}

/** A value on the key's line whose following indented lines are read as part of it (not a block scalar). */
function isPlainContinuation(inline: string): boolean {
  return inline !== "" && !BLOCK_HEADER.test(inline);
}

function looseKey(line: string): { key?: string } {
  const key = LOOSE_KEY.exec(line)?.[1]?.trim();
  return key === undefined || key === "" ? {} : { key };
}

function readValue(inline: string, block: string[]): unknown {
  const header = BLOCK_HEADER.exec(inline);
  if (header !== null) return blockScalar(block, header[1] === "|", header[2] ?? "");
  if (inline === "") return nestedBlock(block);
  const folded = [inline, ...block.map((l) => l.trim()).filter((l) => l !== "")].join(" ");
  if (folded.startsWith("[") && folded.endsWith("]")) return inlineList(folded);
  if (folded.startsWith("{") && folded.endsWith("}")) return tryYaml(folded) ?? folded;
  if (folded.length >= 2 && (folded.startsWith('"') || folded.startsWith("'"))) {
    const quote = folded[0];
    if (folded.endsWith(quote ?? "")) {
      const parsed = tryYaml(folded);
      return typeof parsed === "string" ? parsed : folded.slice(1, -1);
    }
  }
  return plainScalar(folded);
}

function blockScalar(block: string[], literal: boolean, chomp: string): string {
  const indent = smallestIndent(block.filter((l) => l.trim() !== ""));
  const dedented = block.map((l) => (l.trim() === "" ? "" : l.slice(Number.isFinite(indent) ? indent : 0)));
  let text: string;
  if (literal) {
    text = dedented.join("\n");
  } else {
    // Folded: single newlines become spaces, blank lines become newlines; more-indented lines stay as-is.
    text = "";
    for (const [index, line] of dedented.entries()) {
      if (index === 0) text = line;
      else if (line === "") text += "\n";
      else if (text.endsWith("\n") || /^\s/.test(line)) text += line;
      else text += ` ${line}`;
    }
  }
  return chomp === "+"
    ? `${text}\n`
    : chomp === "-"
      ? text.replace(/\n+$/, "")
      : `${text.replace(/\n+$/, "")}\n`;
}

function nestedBlock(block: string[]): unknown {
  const content = block.filter((l) => l.trim() !== "");
  if (content.length === 0) return null;
  const indent = smallestIndent(content);
  const dedented = block.map((l) => l.slice(Math.min(indent, /^\s*/.exec(l)?.[0].length ?? 0)));
  const parsed = tryYaml(dedented.join("\n"));
  if (parsed !== undefined) return parsed;
  // Not YAML even on its own: its lines, one item each. A list reader then still sees every name (a
  // `disallowedTools` block must not lose one), and a key that wants a map or a string rejects it.
  return content.map((l) => unquote(l.trim().replace(/^-\s*/, "")));
}

function inlineList(text: string): unknown {
  const parsed = tryYaml(text);
  if (Array.isArray(parsed)) return parsed;
  return splitOutsideParentheses(text.slice(1, -1))
    .map((item) => unquote(item.trim()))
    .filter((item) => item !== "");
}

function plainScalar(text: string): unknown {
  if (/^(true|false)$/i.test(text)) return text.toLowerCase() === "true";
  if (/^(null|~)$/i.test(text)) return null;
  if (/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text)) return Number(text);
  return text;
}

function unquote(text: string): string {
  if (text.length >= 2 && /^(["']).*\1$/.test(text)) return text.slice(1, -1);
  return text;
}

function tryYaml(source: string): unknown {
  try {
    // Unique keys: of `edit: deny` and `edit: allow` in one block, keeping the last could widen.
    const value = parse(source, { uniqueKeys: true, logLevel: "error" }) as unknown;
    return holdsLoop(value) ? undefined : value;
  } catch {
    return undefined;
  }
}

/** A loop, not `Math.min(...lines)`: a spread of a huge block overflows the call stack. */
function smallestIndent(lines: readonly string[]): number {
  let smallest = Number.POSITIVE_INFINITY;
  for (const line of lines) smallest = Math.min(smallest, /^\s*/.exec(line)?.[0].length ?? 0);
  return smallest;
}

function define<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function excerpt(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > 60 ? `${trimmed.slice(0, 57)}...` : trimmed;
}
