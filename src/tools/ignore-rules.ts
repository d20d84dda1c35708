import { globToRegExp } from "./glob-pattern.ts";

/** Directories no file tool ever walks into. */
export const ALWAYS_IGNORED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules", ".agentry"]);

interface IgnoreRule {
  regex: RegExp;
  negated: boolean;
  directoryOnly: boolean;
}

/** Decides whether a path (relative to the rules' base directory, `/`-separated) is ignored. */
export interface IgnoreMatcher {
  ignores(relativePath: string, isDirectory: boolean): boolean;
}

/**
 * `.gitignore` semantics for one file at the base directory: `#` comments, `!` negation (last match
 * wins), a trailing `/` for directories only, a pattern with a `/` anchored to the base, otherwise matched
 * at any depth. Also used for `list`'s `ignore` patterns.
 */
export function createIgnoreMatcher(lines: readonly string[]): IgnoreMatcher {
  const rules = lines.flatMap((line) => {
    const rule = parseLine(line);
    return rule === undefined ? [] : [rule];
  });
  return {
    ignores(relativePath, isDirectory) {
      let ignored = false;
      for (const rule of rules) {
        if (rule.directoryOnly && !isDirectory) continue;
        if (rule.regex.test(relativePath)) ignored = !rule.negated;
      }
      return ignored;
    },
  };
}

export function parseIgnoreFile(text: string): IgnoreMatcher {
  return createIgnoreMatcher(text.split(/\r?\n/));
}

function parseLine(line: string): IgnoreRule | undefined {
  let pattern = line.replace(/(?<!\\)\s+$/, "");
  if (pattern === "" || pattern.startsWith("#")) return undefined;
  let negated = false;
  if (pattern.startsWith("!")) {
    negated = true;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith("\\!") || pattern.startsWith("\\#")) {
    pattern = pattern.slice(1);
  }
  const directoryOnly = pattern.endsWith("/");
  if (directoryOnly) pattern = pattern.replace(/\/+$/, "");
  if (pattern === "") return undefined;
  const anchored = pattern.includes("/");
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  const source = anchored ? pattern : `**/${pattern}`;
  return { regex: globToRegExp(source), negated, directoryOnly };
}
