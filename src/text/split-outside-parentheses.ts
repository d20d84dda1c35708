/**
 * `Read, Task(explore, plan)` → `Read`, ` Task(explore, plan)`: the text split where `isSeparator` holds
 * outside parentheses (a comma by default), so a tool's arguments stay whole (`Bash(git diff:*)`). The
 * items are as they stand, untrimmed, empty ones included.
 */
export function splitOutsideParentheses(
  text: string,
  isSeparator: (char: string) => boolean = (char) => char === ",",
): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if (char === "(") depth++;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && isSeparator(char)) {
      items.push(current);
      current = "";
    } else current += char;
  }
  items.push(current);
  return items;
}
