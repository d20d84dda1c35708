import { readFileSync } from "node:fs";
import { z } from "zod";
import { defineReadingTool } from "../reading-tool.ts";
import { ToolError } from "../tool.ts";
import { createIgnoreMatcher } from "../walk/ignore-rules.ts";
import { compareNames, type WalkEntry, walkFiles } from "../walk/walk-files.ts";

export const LIST_MAX_ENTRIES = 1000;

const schema = z.object({
  path: z.string().optional().describe("Directory (default: the workspace)."),
  ignore: z.array(z.string()).optional().describe("Patterns to leave out."),
});

export const listTool = defineReadingTool({
  name: "list",
  description: readFileSync(new URL("./list.md", import.meta.url), "utf8"),
  schema,
  title: (_args, relative) => `list ${relative}`,
  async execute(args, ctx, { target: dir, stat }) {
    if (!stat.isDirectory) throw new ToolError(`${dir.relative} is a file, use read to see its content.`);

    const entries: WalkEntry[] = [];
    let capped = false;
    const walk = walkFiles({
      ops: ctx.ops,
      workspace: dir.root,
      start: dir.absolute,
      extraIgnore: createIgnoreMatcher(args.ignore ?? []),
      signal: ctx.signal,
    });
    for await (const entry of walk) {
      // Breadth-first, so when the cap hits, the top levels are complete and only deep ones are missing.
      if (entries.length === LIST_MAX_ENTRIES) {
        capped = true;
        break;
      }
      entries.push(entry);
    }
    const header = `${dir.absolute}/`;
    const details = { path: dir.relative, entries: entries.length, capped };
    if (entries.length === 0) return { content: `${header}\n  (empty)`, details };
    let content = [header, ...renderTree(entries)].join("\n");
    if (capped) {
      content += `\n\n(Listing stopped at ${LIST_MAX_ENTRIES} entries; list a subdirectory or pass ignore patterns to see the rest.)`;
    }
    return { content, details };
  },
});

/** Indented tree, two spaces per level; directories first with a trailing `/`. */
function renderTree(entries: readonly WalkEntry[]): string[] {
  const children = new Map<string, WalkEntry[]>();
  for (const entry of entries) {
    const parent = entry.pathFromStart.includes("/")
      ? entry.pathFromStart.slice(0, entry.pathFromStart.lastIndexOf("/"))
      : "";
    const siblings = children.get(parent) ?? [];
    siblings.push(entry);
    children.set(parent, siblings);
  }
  const lines: string[] = [];
  const visit = (parent: string, depth: number): void => {
    const siblings = (children.get(parent) ?? []).sort(
      (a, b) =>
        Number(b.isDirectory) - Number(a.isDirectory) || compareNames(a.pathFromStart, b.pathFromStart),
    );
    for (const entry of siblings) {
      const name = entry.pathFromStart.slice(parent === "" ? 0 : parent.length + 1);
      const suffix = entry.isDirectory ? "/" : entry.isSymbolicLink ? " (symlink)" : "";
      lines.push(`${"  ".repeat(depth)}${name}${suffix}`);
      if (entry.isDirectory) visit(entry.pathFromStart, depth + 1);
    }
  };
  visit("", 1);
  return lines;
}
