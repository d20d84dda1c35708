import { extname, relative, sep } from "node:path";
import type { InstructionContext, InstructionScope } from "./instruction-file.ts";

/**
 * Whether a file of `scope` may read `path` (a real path: links already followed), or why not (a
 * clause: "outside the project").
 * - A project's files (and what they import or list) stay inside the project (the repository's top
 *   folder, else the workspace): a cloned repository must not pull `~/.ssh/id_ed25519` into a prompt
 *   that goes to a provider. In a folder the user trusts they may also import Markdown files from the
 *   home folder (Claude Code's `@~/.claude/my-project-instructions.md`).
 * - The user's own files may read the home folder, the user's config folders and the project.
 */
export function refusal(
  path: string,
  scope: InstructionScope,
  context: Pick<InstructionContext, "projectRoot" | "home" | "userRoots" | "trusted">,
): string | undefined {
  if (isInside(path, context.projectRoot)) return undefined;
  const inHome = isInside(path, context.home);
  if (scope === "user") {
    if (inHome || context.userRoots.some((root) => isInside(path, root))) return undefined;
    return "outside your home folder and the project";
  }
  if (!inHome) return "outside the project";
  if (!context.trusted)
    return "outside the project, in your home folder, which a project's files may read only in a folder you trust (agentry trust)";
  if (extname(path).toLowerCase() !== ".md")
    return "outside the project, in your home folder, where a project's files may read Markdown (.md) files only";
  return undefined;
}

/** True when `path` is `folder` or inside it (both absolute and normalized). */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return (
    rel === "" ||
    (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel))
  );
}
