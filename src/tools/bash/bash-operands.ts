import { basename, dirname, relative } from "node:path";
import { externalPaths, workspaceOperands } from "../../shell/external-paths.ts";
import { recursiveReadRoots } from "../../shell/recursive-reads.ts";
import { isInside } from "../../text/path-inside.ts";
import type { ToolContext } from "../tool.ts";
import { globToRegExp } from "../walk/glob-pattern.ts";

/** Operands with glob characters are expanded against their folder, up to this many matches each. */
const MAX_GLOB_MATCHES = 200;
/** A recursive read is checked file by file, up to this many files (`node_modules` and `.git` skipped). */
const MAX_WALKED_FILES = 20_000;

/**
 * What a command run without the OS sandbox must ask about the files it names, as the file tools
 * would: `external_directory` for a path outside the workspace (named, or reached through a symlink
 * inside it), `read` for a workspace file (so a `.env` that the rules keep back is asked, or denied).
 * A recursive read (`grep -r`, `rg`, `… | xargs cat`) asks `read` for every file it may reach. Only
 * operands of commands known to take paths are seen: this is analysis, the OS sandbox is the boundary.
 */
export async function checkOperandsUnconfined(command: string, ctx: ToolContext): Promise<void> {
  const outside = new Set(externalPaths(command, ctx.workspace));
  const inside = new Set<string>();
  const classify = async (path: string) => {
    const real = await ctx.ops.realpath(path).catch(() => undefined);
    if (real === undefined) return;
    if (isInside(real, ctx.workspace)) inside.add(relative(ctx.workspace, real) || ".");
    else outside.add(real);
  };
  for (const operand of workspaceOperands(command, ctx.workspace)) {
    for (const path of await expand(operand, ctx)) await classify(path);
  }
  for (const root of recursiveReadRoots(command, ctx.workspace)) {
    if (!isInside(root, ctx.workspace)) outside.add(root);
    else for (const file of await walkFiles(root, ctx)) await classify(file);
  }
  for (const path of outside) {
    await ctx.ask({
      permission: "external_directory",
      patterns: [path],
      title: `bash touches ${path}, outside the workspace`,
    });
  }
  const files = [...inside].filter((path) => path !== ".");
  if (files.length > 0)
    await ctx.ask({ permission: "read", patterns: files, title: `bash reads ${files.join(", ")}` });
}

/** The paths an operand stands for: itself, or what its last segment's glob matches. */
async function expand(operand: string, ctx: ToolContext): Promise<string[]> {
  if (!/[*?[]/.test(basename(operand))) return [operand];
  const folder = dirname(operand);
  if (/[*?[]/.test(folder)) return [];
  const pattern = globToRegExp(basename(operand));
  // Listing takes a real path (Operations); the names found are joined to the folder as written.
  const real = await ctx.ops.realpath(folder).catch(() => undefined);
  const entries = real === undefined ? [] : await ctx.ops.readdir(real).catch(() => []);
  return entries
    .filter((entry) => pattern.test(entry.name))
    .slice(0, MAX_GLOB_MATCHES)
    .map((entry) => `${folder}/${entry.name}`);
}

/** The files under `root` (symlinks as files, not followed), breadth first, up to `MAX_WALKED_FILES`. */
async function walkFiles(root: string, ctx: ToolContext): Promise<string[]> {
  const files: string[] = [];
  // Listing takes real paths (Operations); below a real root every folder the walk enters is real.
  const queue = [await ctx.ops.realpath(root).catch(() => root)];
  while (queue.length > 0 && files.length < MAX_WALKED_FILES) {
    const dir = queue.shift() as string;
    const entries = await ctx.ops.readdir(dir).catch(() => undefined);
    if (entries === undefined) {
      files.push(dir);
      continue;
    }
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) {
        if (entry.name !== "node_modules" && entry.name !== ".git") queue.push(path);
      } else {
        files.push(path);
      }
    }
  }
  return files;
}
