/**
 * Matches `value` against a rule pattern: `*` is any run of characters (including `/`, so `**` works
 * for paths too), `?` is exactly one character, everything else is literal and case-sensitive.
 * A pattern ending in ` *` also matches the value without that tail, so `git status *` matches the
 * bare `git status` as well as `git status --short` (but not `git statusx`).
 */
export function wildcardMatch(pattern: string, value: string): boolean {
  if (globMatch(pattern, value)) return true;
  return pattern.endsWith(" *") && globMatch(pattern.slice(0, -2), value);
}

/**
 * Iterative matcher with single-star backtracking: linear in practice, no regex escaping pitfalls,
 * and no catastrophic backtracking on long commands.
 */
function globMatch(pattern: string, value: string): boolean {
  let p = 0;
  let v = 0;
  let starP = -1;
  let starV = 0;
  while (v < value.length) {
    const char = pattern[p];
    if (char === "*") {
      starP = p++;
      starV = v;
    } else if (char !== undefined && (char === "?" || char === value[v])) {
      p++;
      v++;
    } else if (starP !== -1) {
      p = starP + 1;
      v = ++starV;
    } else {
      return false;
    }
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}
