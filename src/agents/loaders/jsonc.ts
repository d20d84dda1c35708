import { LineCounter, parseDocument } from "yaml";
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
  // JSON is YAML; the YAML parser knows where keys are and refuses duplicates.
  const lineCounter = new LineCounter();
  const duplicate = parseDocument(json, { uniqueKeys: true, lineCounter }).errors.find(
    (error) => error.code === "DUPLICATE_KEY",
  );
  if (duplicate !== undefined) {
    const line = lineCounter.linePos(duplicate.pos[0]).line;
    throw new JsoncError("a key appears twice in one object; write it once", line);
  }
  return value;
}

/** Comments become spaces (so positions and lines stay), trailing commas are dropped. */
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
      while (i < text.length && text[i] !== "\n") i++;
    } else if (ch === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out.push(text.slice(i, stop).replace(/[^\n]/g, " "));
      i = stop;
    } else {
      if (ch === "}" || ch === "]") dropTrailingComma(out);
      out.push(ch);
      i++;
    }
  }
  return out.join("");
}

function dropTrailingComma(out: string[]): void {
  for (let k = out.length - 1; k >= 0; k--) {
    const piece = out[k] ?? "";
    if (piece.trim() === "") continue;
    if (piece === ",") out[k] = " ";
    return;
  }
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
