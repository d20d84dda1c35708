export interface Occurrences {
  /** The form of old_string found in the file (line endings adapted to the file's). */
  oldText: string;
  /** new_string with the same line-ending adaptation. */
  newText: string;
  /** Start offsets of the non-overlapping occurrences, in order. */
  positions: number[];
}

/**
 * Finds old_string exactly. When the file uses CRLF and the model wrote LF (read shows lines without
 * their `\r`), the strings are matched and replaced in CRLF form, so the file keeps its line endings.
 */
export function findOccurrences(
  content: string,
  oldString: string,
  newString: string,
): Occurrences | undefined {
  const exact = positionsOf(content, oldString);
  if (exact.length > 0) return { oldText: oldString, newText: newString, positions: exact };
  if (!content.includes("\r\n")) return undefined;
  const oldCrlf = toCrlf(oldString);
  if (oldCrlf === oldString) return undefined;
  const converted = positionsOf(content, oldCrlf);
  if (converted.length === 0) return undefined;
  return { oldText: oldCrlf, newText: toCrlf(newString), positions: converted };
}

function positionsOf(content: string, needle: string): number[] {
  const positions: number[] = [];
  for (let at = content.indexOf(needle); at !== -1; at = content.indexOf(needle, at + needle.length)) {
    positions.push(at);
  }
  return positions;
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

/** 1-based line of a character offset. */
export function lineNumberAt(content: string, offset: number): number {
  let line = 1;
  for (let i = content.indexOf("\n"); i !== -1 && i < offset; i = content.indexOf("\n", i + 1)) line += 1;
  return line;
}

/** Why an exact match may have failed, phrased as what to do next. */
export function notFoundHint(content: string, oldString: string): string {
  if (/^ *\d+\t/m.test(oldString)) {
    return "It seems to include read's line-number prefixes (number and tab); copy only the text after them.";
  }
  const squash = (text: string): string => text.replace(/\s+/g, " ").trim();
  if (squash(oldString) !== "" && squash(content).includes(squash(oldString))) {
    return "It matches only when whitespace is ignored: check indentation (tabs or spaces), trailing spaces and line breaks, and copy the text exactly as read shows it.";
  }
  return "Read the file first and copy the exact text, including whitespace and indentation.";
}
