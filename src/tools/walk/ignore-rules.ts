import ignore from "ignore";

/** Directories no file tool ever walks into. */
export const ALWAYS_IGNORED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules", ".agentry"]);

/** Decides whether a path (relative to the rules' base directory, `/`-separated) is ignored. */
export interface IgnoreMatcher {
  ignores(relativePath: string, isDirectory: boolean): boolean;
}

/**
 * `.gitignore` lines, read exactly as git reads them (the `ignore` package): `#` comments, `!`
 * negation (last match wins), a trailing `/` for directories only, a pattern with a `/` anchored to the
 * base, otherwise matched at any depth; `{a,b}` is literal. Used for `list`'s `ignore` patterns; the
 * repository's own ignore files go through `gitignore-scope.ts`.
 */
export function createIgnoreMatcher(lines: readonly string[]): IgnoreMatcher {
  const rules = ignore({ ignorecase: false }).add(lines.filter((line) => line.trim() !== ""));
  return {
    ignores(relativePath, isDirectory) {
      if (relativePath === "") return false;
      try {
        return rules.ignores(isDirectory ? `${relativePath}/` : relativePath);
      } catch {
        return false; // a name the library refuses as a path matches no pattern
      }
    },
  };
}
