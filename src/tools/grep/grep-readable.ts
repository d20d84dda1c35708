import { PermissionDeniedError } from "../../permissions/types.ts";
import type { ToolContext } from "../tool.ts";
import type { GrepFile } from "./grep-query.ts";

/** The walk's files grep may read, and those the read rules keep back from it. */
export interface ReadableFiles {
  files: GrepFile[];
  /** Denied by a rule (or the mode). */
  denied: string[];
  /** Asked by a rule (`.env` by default): grep does not prompt once per file, so it leaves them out. */
  needsApproval: string[];
}

/**
 * Applies the `read` rules to every file a search would open, as `read` would for each: a folder
 * search must not show the lines of a `.env` that `read .env` is asked or denied. One request without a
 * prompt settles them all: what would need a person is left out and named in the result (Claude Code's
 * grep does not prompt per file either); the model can grep or read such a file by its path, which asks.
 */
export async function readableFiles(ctx: ToolContext, files: readonly GrepFile[]): Promise<ReadableFiles> {
  if (files.length === 0) return { files: [], denied: [], needsApproval: [] };
  try {
    await ctx.ask({
      permission: "read",
      patterns: files.map((file) => file.path),
      title: `grep reads ${files.length} file${files.length === 1 ? "" : "s"}`,
      prompt: false,
    });
    return { files: [...files], denied: [], needsApproval: [] };
  } catch (error) {
    if (!(error instanceof PermissionDeniedError)) throw error;
    // A gate that did not say which files it refused (one that ignores `prompt: false`): search none.
    const refused = error.refused ?? { denied: files.map((file) => file.path), needsApproval: [] };
    const left = new Set([...refused.denied, ...refused.needsApproval]);
    return {
      files: files.filter((file) => !left.has(file.path)),
      denied: refused.denied,
      needsApproval: refused.needsApproval,
    };
  }
}

const NAMED = 10;

/** The note a result ends with when files were left out, naming a few; empty when none were. */
export function leftOutNote(readable: ReadableFiles): string {
  const parts: string[] = [];
  if (readable.needsApproval.length > 0) {
    parts.push(
      `${count(readable.needsApproval)} that need${readable.needsApproval.length === 1 ? "s" : ""} approval to read (${names(readable.needsApproval)}): grep or read ${readable.needsApproval.length === 1 ? "it" : "one"} by its path to ask for it`,
    );
  }
  if (readable.denied.length > 0)
    parts.push(`${count(readable.denied)} whose reading is denied (${names(readable.denied)})`);
  return parts.length === 0 ? "" : `\n\n(Not searched: ${parts.join("; ")}.)`;
}

function count(paths: readonly string[]): string {
  return `${paths.length} file${paths.length === 1 ? "" : "s"}`;
}

function names(paths: readonly string[]): string {
  const shown = paths.slice(0, NAMED).join(", ");
  return paths.length > NAMED ? `${shown}, …` : shown;
}
