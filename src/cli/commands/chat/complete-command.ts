/**
 * Tab completion of `/name` at the start of a line: the command names that begin with what is typed,
 * each as the whole line (`/rev` → `/review `); nothing for a line that is not a command yet.
 */
export function completeCommand(names: readonly string[]): (line: string) => string[] {
  return (line) => {
    const match = /^\/([\w:.-]*)$/.exec(line);
    if (match === null) return [];
    const typed = match[1] ?? "";
    const found = names.filter((name) => name.startsWith(typed)).map((name) => `/${name} `);
    return found.length === 1 ? found : found.map((candidate) => candidate.trimEnd());
  };
}
