import type { Mention } from "./mention.ts";

/**
 * `@` at the start of the prompt or after whitespace, then a quoted name (`@"my notes.md"`) or a run
 * of non-space characters. `a@b.com` and `x@y` inside a word are not mentions.
 */
const MENTION = /(?<=^|\s)@(?:"([^"\n]+)"|([^\s"]+))/g;

/** Punctuation that ends a sentence more often than a path: `see @src/app.ts.` */
const TRAILING = /[.,;:!?)\]}'’]+$/;

/** The mentions of a prompt, each once, in order. */
export function findMentions(prompt: string): Mention[] {
  const found = new Map<string, Mention>();
  for (const match of prompt.matchAll(MENTION)) {
    const quoted = match[1];
    const target = quoted ?? match[2] ?? "";
    if (target === "" || found.has(target)) continue;
    const mention: Mention = { text: match[0], target };
    const trimmed = quoted === undefined ? target.replace(TRAILING, "") : target;
    if (trimmed !== target && trimmed !== "") mention.trimmed = trimmed;
    found.set(target, mention);
  }
  return [...found.values()];
}
