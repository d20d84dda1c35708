/**
 * A hook's matcher as Claude Code reads it: absent, empty or `*` matches everything; letters, digits,
 * `_` and `|` only (`Bash`, `Edit|Write`) are exact names; anything else is a JavaScript regular
 * expression tested anywhere in the value (`mcp__github__.*`, `^Notebook`). Case-sensitive.
 * Returns undefined for a pattern that is not a valid regular expression.
 */
export function compileMatcher(matcher: string | undefined): ((value: string) => boolean) | undefined {
  const pattern = matcher?.trim() ?? "";
  if (pattern === "" || pattern === "*") return () => true;
  if (/^[A-Za-z0-9_|]+$/.test(pattern)) {
    const names = new Set(pattern.split("|").filter((name) => name !== ""));
    return (value) => names.has(value);
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch {
    return undefined;
  }
  return (value) => regex.test(value);
}
