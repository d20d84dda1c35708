import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { evaluate } from "../permissions/evaluate.ts";
import type { Ruleset } from "../permissions/types.ts";

/** Folders that hold no project secrets and can be huge. */
const SKIPPED = new Set(["node_modules", ".git"]);
/** A walk that finds more entries than this cannot finish in time: the whole workspace is then hidden. */
export const MAX_WALKED_ENTRIES = 200_000;
/** More files to hide than this is not a few secrets but a policy of reading nothing: hide everything. */
export const MAX_HIDDEN_FILES = 2_000;
/** How long one walk's answer is reused: commands come in bursts, files change rarely. */
const REUSE_MS = 3_000;

export type UnreadableFiles =
  | { kind: "files"; paths: string[] }
  /** The walk could not finish (too many entries, an unreadable folder): hide everything (fail closed). */
  | { kind: "everything"; reason: string };

interface Walked {
  at: number;
  pending: Promise<UnreadableFiles>;
}

/**
 * Finds the workspace files (and symlinks) whose reading the `read` rules do not allow outright — with
 * the default rules, `.env` files — so the sandbox can hide them from commands as the rules hide them
 * from the `read` tool. Ignored files are walked too: `.env` is usually in `.gitignore`.
 */
export class UnreadableFileFinder {
  readonly #walks = new Map<string, Walked>();
  readonly #maxWalkedEntries: number;

  /** `maxWalkedEntries`: where a walk gives up and hides everything (a test's small folder reaches it). */
  constructor(maxWalkedEntries = MAX_WALKED_ENTRIES) {
    this.#maxWalkedEntries = maxWalkedEntries;
  }

  find(workspace: string, readRules: Ruleset, now = Date.now()): Promise<UnreadableFiles> {
    const key = `${workspace}\u0000${JSON.stringify(readRules)}`;
    const cached = this.#walks.get(key);
    if (cached !== undefined && now - cached.at < REUSE_MS) return cached.pending;
    const pending = walk(workspace, readRules, this.#maxWalkedEntries);
    this.#walks.set(key, { at: now, pending });
    return pending;
  }
}

async function walk(workspace: string, readRules: Ruleset, maxEntries: number): Promise<UnreadableFiles> {
  // Nothing to hide when no rule could keep a file back (fast path: one rule reads everything).
  if (!readRules.some((rule) => rule.action !== "allow")) return { kind: "files", paths: [] };
  const found: string[] = [];
  let entries = 0;
  const queue: string[] = [""];
  while (queue.length > 0) {
    const relative = queue.shift() as string;
    let children: import("node:fs").Dirent[];
    try {
      children = await readdir(join(workspace, relative), { withFileTypes: true });
    } catch (error) {
      if (relative === "") throw error;
      return { kind: "everything", reason: `cannot list ${relative} (${(error as Error).message})` };
    }
    entries += children.length;
    if (entries > maxEntries) return { kind: "everything", reason: `more than ${maxEntries} files to check` };
    for (const child of children) {
      const path = relative === "" ? child.name : `${relative}/${child.name}`;
      if (child.isDirectory()) {
        if (!SKIPPED.has(child.name)) queue.push(path);
      } else if (evaluate(readRules, "read", path) !== "allow") {
        found.push(path);
        if (found.length > MAX_HIDDEN_FILES)
          return {
            kind: "everything",
            reason: `the read rules keep back more than ${MAX_HIDDEN_FILES} files`,
          };
      }
    }
  }
  return { kind: "files", paths: found };
}
