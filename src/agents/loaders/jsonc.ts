import { AgentryError } from "../../errors/agentry-error.ts";

/** A JSON(C) text that cannot be read, with the line where it went wrong when known. */
export class JsoncError extends AgentryError {
  override readonly name = "JsoncError";
  readonly kind = "user";
  readonly line: number | undefined;
  constructor(message: string, line?: number) {
    super(message);
    this.line = line;
  }
}

/**
 * JSON with comments (`//`, `/* … *\/`) and trailing commas, as opencode.json(c) allows. A key given
 * twice in one object is an error rather than "the last one wins" (`JSON.parse`), because the first
 * may be the narrower of two permissions. Throws `JsoncError`.
 */
export function parseJsonc(text: string): unknown {
  const json = stripJsonc(text);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new JsoncError(`not valid JSON: ${(error as Error).message}`);
  }
  const line = duplicateKeyLine(json);
  if (line !== undefined) throw new JsoncError("a key appears twice in one object; write it once", line);
  return value;
}

/**
 * Comments become spaces (so positions and lines stay), trailing commas are dropped. A `//` comment
 * ends at a carriage return too, as in OpenCode's parser (jsonc-parser): text after a lone `\r` is read.
 */
function stripJsonc(text: string): string {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? "";
    if (ch === '"') {
      const end = stringEnd(text, i);
      out.push(text.slice(i, end));
      i = end;
    } else if (ch === "/" && text[i + 1] === "/") {
      while (i < text.length && !isLineBreak(text[i])) i++;
    } else if (ch === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out.push(text.slice(i, stop).replace(/[^\r\n]/g, " "));
      i = stop;
    } else {
      if (ch === "}" || ch === "]") dropTrailingComma(out);
      out.push(ch);
      i++;
    }
  }
  return out.join("");
}

function isLineBreak(ch: string | undefined): boolean {
  return ch === "\n" || ch === "\r";
}

function dropTrailingComma(out: string[]): void {
  for (let k = out.length - 1; k >= 0; k--) {
    const piece = out[k] ?? "";
    if (piece.trim() === "") continue;
    if (piece === ",") out[k] = " ";
    return;
  }
}

/**
 * The line of the first key given twice in one object of `json` (valid JSON), or undefined. Read here
 * rather than by a YAML parser, which loses its place at a lone `\r` and misses the duplicate.
 */
function duplicateKeyLine(json: string): number | undefined {
  // The keys of each open object or array (whose strings are never keys), innermost last.
  const open: Set<string>[] = [];
  let i = 0;
  while (i < json.length) {
    const ch = json[i];
    if (ch === '"') {
      const end = stringEnd(json, i);
      const keys = open.at(-1);
      if (keys !== undefined && isKey(json, end)) {
        const key = JSON.parse(json.slice(i, end)) as string;
        if (keys.has(key)) return json.slice(0, i).split(/\r\n|\r|\n/).length;
        keys.add(key);
      }
      i = end;
      continue;
    }
    if (ch === "{" || ch === "[") open.push(new Set());
    else if (ch === "}" || ch === "]") open.pop();
    i++;
  }
  return undefined;
}

/** Whether the string that ends at `end` is a key: in valid JSON, only whitespace comes before its `:`. */
function isKey(json: string, end: number): boolean {
  const space = /\s*/y;
  space.lastIndex = end;
  space.exec(json);
  return json.charAt(space.lastIndex) === ":";
}

/** Index just past the string that starts at `start` (a `"`), escapes included. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === "\\") i += 2;
    else if (text[i] === '"') return i + 1;
    else i++;
  }
  return text.length;
}
