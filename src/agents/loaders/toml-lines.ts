/** A string that may go on past its line. */
type MultilineQuote = '"""' | "'''";
const QUOTES = ['"""', "'''", '"', "'"] as const;

/**
 * The lines of a TOML text where a key or a table header may start (1-based `number`): the lines
 * inside a multi-line string are left out, so a prompt that quotes `model = …` or `[agents.x]` is not
 * taken for where those are set. TOML parsers give no positions; callers scan these lines for names.
 */
export function* tomlLines(text: string): Generator<{ line: string; number: number }> {
  let open: MultilineQuote | undefined;
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const inString = open !== undefined;
    open = openAtEnd(line, open);
    if (!inString) yield { line, number: index + 1 };
  }
}

/** The multi-line string still open at the end of `line`, given the one open at its start. */
function openAtEnd(line: string, open: MultilineQuote | undefined): MultilineQuote | undefined {
  let quote: (typeof QUOTES)[number] | undefined = open;
  let i = 0;
  while (i < line.length) {
    if (quote === undefined) {
      if (line[i] === "#") break;
      quote = QUOTES.find((q) => line.startsWith(q, i));
      i += quote?.length ?? 1;
    } else if (quote[0] === '"' && line[i] === "\\") {
      i += 2; // an escape: `\"` does not end a basic string
    } else if (line.startsWith(quote, i)) {
      i += quote.length;
      quote = undefined;
    } else {
      i += 1;
    }
  }
  // A one-line string ends with its line (or the file is not TOML, which the parser says).
  return quote === '"""' || quote === "'''" ? quote : undefined;
}
