/**
 * A command body's placeholders filled as Claude Code and OpenCode fill them: `$ARGUMENTS` is
 * everything after the command's name, `$1` … `$9` its words (quotes group a word); a placeholder with
 * nothing to fill is empty. A body without `$ARGUMENTS` that gets arguments has them appended, as
 * Claude Code does, so nothing the person typed is lost.
 */
export function fillArguments(body: string, args: string): string {
  const words = splitWords(args);
  const usesAll = body.includes("$ARGUMENTS");
  const usesWords = /\$[1-9]/.test(body);
  const filled = body
    .replace(/\$ARGUMENTS/g, () => args)
    .replace(/\$([1-9])/g, (_, n: string) => words[Number(n) - 1] ?? "");
  if (usesAll || usesWords || args.trim() === "") return filled;
  return `${filled}\n\nARGUMENTS: ${args}`;
}

/** Words as a shell would split them, with "double" and 'single' quotes grouping. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3] ?? "");
  return words;
}

/** `` !`cmd` `` in a command's text: each command, in order, and where it is. */
export function shellPlaceholders(text: string): Array<{ match: string; command: string }> {
  return [...text.matchAll(/!`([^`\n]+)`/g)].map((match) => ({
    match: match[0],
    command: (match[1] ?? "").trim(),
  }));
}
