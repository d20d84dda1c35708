import { isAbsolute, join, resolve } from "node:path";

/**
 * The `@path` imports a CLAUDE.md names, in order: `@` at the start of a line or after white space,
 * then the path up to the next white space (`\ ` for a space in it). Not inside fenced code blocks
 * (``` or ~~~) or inline code spans, as Claude Code reads them; trailing punctuation
 * (`See @docs/setup.md.`) is not part of the path.
 */
export function importSpecs(text: string): string[] {
  const specs: string[] = [];
  let fence: { char: string; length: number } | undefined;
  for (const line of text.split("\n")) {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== undefined) {
      const closing = opening?.[1];
      if (closing?.[0] === fence.char && closing.length >= fence.length && line.trim() === closing)
        fence = undefined;
      continue;
    }
    if (opening?.[1] !== undefined) {
      fence = { char: opening[1][0] ?? "`", length: opening[1].length };
      continue;
    }
    for (const match of withoutCodeSpans(line).matchAll(/(?:^|\s)@((?:\\ |[^\s])+)/g)) {
      const spec = (match[1] ?? "").replace(/\\ /g, " ").replace(/[.,;:!?)\]}'"]+$/, "");
      if (spec !== "" && !spec.startsWith("@") && !spec.includes("://")) specs.push(spec);
    }
  }
  return specs;
}

/** A line with its code spans (a run of backticks up to the next run of the same length) blanked. */
function withoutCodeSpans(line: string): string {
  const runs = [...line.matchAll(/`+/g)].map((match) => ({ at: match.index, length: match[0].length }));
  let out = "";
  let copied = 0;
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i];
    if (open === undefined || open.at < copied) continue;
    const closeIndex = runs.findIndex((run, j) => j > i && run.length === open.length);
    const close = runs[closeIndex];
    if (close === undefined) continue;
    out += line.slice(copied, open.at) + " ".repeat(close.at + close.length - open.at);
    copied = close.at + close.length;
    i = closeIndex;
  }
  return out + line.slice(copied);
}

/** Where an import points: `~/…` from the home folder, an absolute path, else from the importing file's folder. */
export function importTarget(spec: string, fromDir: string, home: string): string {
  if (spec === "~" || spec.startsWith("~/")) return join(home, spec.slice(1));
  return isAbsolute(spec) ? resolve(spec) : resolve(fromDir, spec);
}
