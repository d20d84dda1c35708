/** A link of a Markdown text: its target as written, and the line it is on (1-based). */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** The lines outside fenced code blocks, with their numbers (1-based). */
function outsideFences(markdown: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fence: string | undefined;
  markdown.split("\n").forEach((text, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker !== undefined) {
      if (fence === undefined) fence = marker;
      else if (marker.startsWith(fence)) fence = undefined;
      return;
    }
    if (fence === undefined) lines.push({ text, line: index + 1 });
  });
  return lines;
}

/** Every inline link and image (`[text](target)`, `![alt](target "title")`) outside code. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  return outsideFences(markdown).flatMap(({ text, line }) =>
    // Inline code holds text, not links.
    [...text.replace(/`[^`]*`/g, "``").matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
      (match) => ({
        target: match[1] ?? "",
        line,
      }),
    ),
  );
}

/**
 * The anchors GitHub gives a text's headings: lower case, inline code and punctuation other than `-`
 * and `_` dropped, spaces as `-`; a repeated one gets `-1`, `-2` ….
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of outsideFences(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
