/**
 * Glob syntax shared by `glob` and `grep`'s file filter: `*` (within a path segment, dotfiles
 * included), `**` as a whole segment (any number of segments; elsewhere, as in `a**b`, it is `*`), `?`,
 * `[abc]`/`[!abc]`, `{a,b}` and `\` escapes. Nothing but `**` crosses a `/`. Paths use `/`.
 * (`.gitignore` files and `list`'s ignore patterns follow git's rules instead: `ignore-rules.ts`.)
 */
export function globToRegExp(glob: string, flags = ""): RegExp {
  return new RegExp(`^${globSource(glob)}$`, flags);
}

function globSource(glob: string): string {
  let out = "";
  let i = 0;
  while (i < glob.length) {
    const char = glob[i]!;
    if (char === "*") {
      let stars = 1;
      while (glob[i + stars] === "*") stars += 1;
      const wholeSegment =
        stars >= 2 &&
        (i === 0 || glob[i - 1] === "/") &&
        (i + stars === glob.length || glob[i + stars] === "/");
      if (wholeSegment && glob[i + stars] === "/") {
        out += "(?:.*/)?";
        i += stars + 1;
      } else {
        out += wholeSegment ? ".*" : "[^/]*";
        i += stars;
      }
      continue;
    }
    if (char === "?") {
      out += "[^/]";
      i += 1;
      continue;
    }
    if (char === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close !== -1) {
        let body = glob.slice(i + 1, close);
        const negated = body.startsWith("!") || body.startsWith("^");
        if (negated) body = body.slice(1);
        const escaped = body.replace(/[\\\]]/g, "\\$&");
        // A class never matches `/`, negated or not (a range such as `!-0` includes it).
        out += `(?!/)[${negated ? "^" : ""}${escaped}]`;
        i = close + 1;
        continue;
      }
    }
    if (char === "{") {
      const close = matchingBrace(glob, i);
      if (close !== -1) {
        const alternatives = splitTopLevel(glob.slice(i + 1, close));
        out += `(?:${alternatives.map(globSource).join("|")})`;
        i = close + 1;
        continue;
      }
    }
    if (char === "\\" && i + 1 < glob.length) {
      out += escapeRegExp(glob[i + 1]!);
      i += 2;
      continue;
    }
    out += escapeRegExp(char);
    i += 1;
  }
  return out;
}

function matchingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === "\\") i += 1;
    else if (glob[i] === "{") depth += 1;
    else if (glob[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "\\") i += 1;
    else if (body[i] === "{") depth += 1;
    else if (body[i] === "}") depth -= 1;
    else if (body[i] === "," && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
