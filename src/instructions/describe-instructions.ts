import { formatSize } from "../tools/format-size.ts";
import type { InstructionFile, LoadedInstructions } from "./instruction-file.ts";

/**
 * One line saying what is in the prompt, for `agentry config` and `agentry doctor`:
 * `loaded ~/.claude/CLAUDE.md (310 bytes), AGENTS.md (2.1 KB), CLAUDE.md (1.0 KB) + 1 import`.
 * Imports are counted with the file that started their chain.
 */
export function describeInstructions(files: readonly InstructionFile[]): string {
  const tops = files.filter((file) => file.origin.kind !== "import");
  if (tops.length === 0) return "no instruction files";
  const parts = tops.map((top) => {
    const imports = files.filter((file) => file.origin.kind === "import" && file.origin.root === top.label);
    const cut = [top, ...imports].some((file) => file.truncated) ? ", cut" : "";
    const count = imports.length === 0 ? "" : ` + ${imports.length} import${imports.length === 1 ? "" : "s"}`;
    return `${top.label} (${formatSize(top.size)}${cut})${count}`;
  });
  return `loaded ${parts.join(", ")}`;
}

/** The instruction files as `agentry config` and `agentry doctor` report them: the line, each file without its text, the problems. */
export function instructionsReport(loaded: LoadedInstructions) {
  return {
    summary: describeInstructions(loaded.files),
    files: loaded.files.map(({ text: _text, ...file }) => file),
    problems: loaded.diagnostics,
  };
}
