import { readFileSync } from "node:fs";
import type { InstructionFile } from "./instruction-file.ts";

const HEADER = readFileSync(new URL("./instructions-section.md", import.meta.url), "utf8").trim();
const NESTED = readFileSync(new URL("./nested-instructions.md", import.meta.url), "utf8").trim();

/**
 * The system prompt's section: a short header, then each file in its own element named by its label.
 * Nothing when there is no file, so a project without instruction files sends the same prompt as before.
 */
export function instructionsSection(files: readonly InstructionFile[]): string {
  if (files.length === 0) return "";
  return `${HEADER}\n\n${files.map(fileBlock).join("\n\n")}`;
}

/** What a tool's result gets when the agent first works in a folder with instruction files of its own. */
export function nestedBlock(path: string, files: readonly InstructionFile[]): string {
  return `${NESTED.replace("{{path}}", path)}\n\n${files.map(fileBlock).join("\n\n")}`;
}

function fileBlock(file: InstructionFile): string {
  const cut = file.truncated ? "\n[cut here: the instruction files' size cap]" : "";
  return `<instructions file="${file.label}">\n${file.text.trim()}${cut}\n</instructions>`;
}
