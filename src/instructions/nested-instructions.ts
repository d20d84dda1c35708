import { dirname, join, relative, resolve, sep } from "node:path";
import type { Hooks } from "../agent/hooks.ts";
import { FileCollector } from "./collect-files.ts";
import type { InstructionContext } from "./instruction-file.ts";
import { nestedBlock } from "./instructions-section.ts";
import { folderLocations, labelOf } from "./locations.ts";
import { isInside } from "./read-policy.ts";
import { realPathOf } from "./read-text.ts";
import { capFiles, INSTRUCTIONS_MAX_BYTES } from "./size-cap.ts";

/** The tools whose `path` says the agent works on a file (read it, or changed it). */
const FILE_TOOLS = new Set(["read", "edit", "write"]);

export interface NestedInstructionsOptions {
  /** What the run's instructions were loaded with (`LoadedInstructions.context`). */
  context: InstructionContext;
  /** The agent's working folder: a child's may be its own (isolated, a worktree). */
  workspace: string;
  /** The cap of one announcement (default `INSTRUCTIONS_MAX_BYTES`). */
  maxBytes?: number;
  /** Where a refused import or the cap is said (stderr, in the CLI). */
  warn?: (message: string) => void;
}

/**
 * Adds the instruction files of a folder below the working folder (`sub/AGENTS.md`, `sub/CLAUDE.md`
 * and its imports …) the first time the agent reads, edits or writes a file there, as Claude Code
 * does: appended to that tool's result, a marked block the transcript keeps, each file once per
 * session — until a compaction summarizes the results that held them, after which the next work
 * there adds them again. Files in the system prompt already are never added. Put these hooks after a
 * compaction's, so they see the compacted history before the model's next tool calls.
 */
export function nestedInstructionsHooks(options: NestedInstructionsOptions): Hooks {
  const maxBytes = options.maxBytes ?? INSTRUCTIONS_MAX_BYTES;
  const announced = new Map<string, Set<string>>();
  // A session's first message: a compaction replaces it by its summary (`Session.compact`).
  const firstMessages = new Map<string, unknown>();
  let workspace: Promise<string> | undefined;
  // Tool calls of one message run at once: one at a time here, so two reads under `sub/` add it once.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    beforeModelCall({ agent, messages }) {
      const first = messages[0];
      if (firstMessages.has(agent.sessionId) && firstMessages.get(agent.sessionId) !== first)
        announced.delete(agent.sessionId);
      firstMessages.set(agent.sessionId, first);
      return undefined;
    },
    afterToolCall({ agent, call, result }) {
      const path = pathArgument(call.args);
      if (result.isError || !FILE_TOOLS.has(call.name) || path === undefined) return undefined;
      const work = queue.then(async () => {
        workspace ??= realPathOf(options.workspace).then((real) => real ?? options.workspace);
        const root = await workspace;
        const file = await realPathOf(resolve(root, path));
        if (file === undefined || !isInside(file, root)) return undefined;
        const folders = foldersBelow(root, dirname(file));
        if (folders.length === 0) return undefined;
        let seen = announced.get(agent.sessionId);
        if (seen === undefined) {
          seen = new Set(options.context.loaded);
          announced.set(agent.sessionId, seen);
        }
        const context = { ...options.context, workspace: root };
        const collector = new FileCollector(context, maxBytes, seen);
        for (const location of folders.flatMap(folderLocations)) {
          for (const named of location.paths) {
            const real = await realPathOf(named);
            if (real === undefined) continue;
            if (isInside(real, root))
              await collector.add({
                path: real,
                named,
                scope: "project",
                imports: location.imports,
                origin: { kind: "location" },
              });
            else
              options.warn?.(
                `${labelOf(named, context)} was not read: it leads to ${real}, outside the workspace`,
              );
            break;
          }
        }
        for (const read of collector.seen) seen.add(read);
        const capped = capFiles(collector.files, maxBytes);
        for (const message of [...collector.diagnostics, ...capped.diagnostics]) options.warn?.(message);
        if (capped.files.length === 0) return undefined;
        const label = labelOf(file, context);
        return { ...result, content: `${result.content}\n\n${nestedBlock(label, capped.files)}` };
      });
      queue = work.catch(() => {});
      return work;
    },
  };
}

/** The folders from just below `root` down to `folder`, the highest first; none when `folder` is `root`. */
function foldersBelow(root: string, folder: string): string[] {
  const rel = relative(root, folder);
  if (rel === "") return [];
  const parts = rel.split(sep);
  return parts.map((_, index) => join(root, ...parts.slice(0, index + 1)));
}

function pathArgument(args: unknown): string | undefined {
  if (typeof args !== "object" || args === null || !("path" in args)) return undefined;
  return typeof args.path === "string" && args.path !== "" ? args.path : undefined;
}
