import { isAbsolute, join, resolve } from "node:path";
import { nodeOperations } from "../tools/node-operations.ts";
import { globToRegExp } from "../tools/walk/glob-pattern.ts";
import { walkFiles } from "../tools/walk/walk-files.ts";
import type { InstructionContext, InstructionScope } from "./instruction-file.ts";
import { isInside, refusal } from "./read-policy.ts";
import { realPathOf } from "./read-text.ts";

/**
 * An `instructions` list of a config file (agentry's `instructions`, OpenCode's `opencode.json`
 * `instructions`): paths or globs, relative to the folder of the file that names them.
 */
export interface InstructionList {
  patterns: readonly string[];
  /** The folder of the file that names them. */
  baseDir: string;
  /** That file, as messages name it: `agentry.json`, `~/.config/opencode/opencode.json`. */
  source: string;
  /**
   * A user's config file, or one of the project's. Unsaid: the project's when `baseDir` is inside the
   * project (a user's file there reads only what a project's may), else the user's.
   */
  scope?: InstructionScope;
}

/** Files one glob may add, at most: a list is for a handful of rule files, not a tree. */
export const MAX_GLOB_MATCHES = 50;

type ListContext = Pick<InstructionContext, "projectRoot" | "home" | "userRoots" | "trusted">;

/** The files a list names, in its order (a glob's matches sorted), each once; and what it could not use. */
export async function expandList(
  list: InstructionList & { scope: InstructionScope },
  context: ListContext,
): Promise<{ paths: string[]; diagnostics: string[] }> {
  const paths: string[] = [];
  const diagnostics: string[] = [];
  const say = (pattern: string, problem: string) =>
    diagnostics.push(`${list.source}: instructions "${pattern}" ${problem}`);
  for (const pattern of list.patterns) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pattern)) {
      say(pattern, "is a URL: instructions are read from files only, never fetched");
      continue;
    }
    const absolute = fromBase(pattern, list.baseDir, context.home);
    if (!/[*?[{]/.test(pattern)) {
      const real = await realPathOf(absolute);
      if (real === undefined) say(pattern, "was not found");
      else {
        const why = refusal(real, list.scope, context);
        if (why === undefined) paths.push(real);
        else say(pattern, `was not read: ${real} is ${why}`);
      }
      continue;
    }
    const matches = await globFiles(absolute, list.scope, context);
    if (matches.length === 0) say(pattern, "matched no file");
    if (matches.length > MAX_GLOB_MATCHES)
      say(
        pattern,
        `matched more than ${MAX_GLOB_MATCHES} files: only the first ${MAX_GLOB_MATCHES} were read`,
      );
    paths.push(...matches.slice(0, MAX_GLOB_MATCHES));
  }
  return { paths: [...new Set(paths)], diagnostics };
}

/** A list's scope: as it says, else by where its file is (`InstructionList.scope`). */
export async function scopeOf(list: InstructionList, projectRoot: string): Promise<InstructionScope> {
  if (list.scope !== undefined) return list.scope;
  const base = (await realPathOf(list.baseDir)) ?? list.baseDir;
  return isInside(base, projectRoot) ? "project" : "user";
}

function fromBase(pattern: string, baseDir: string, home: string): string {
  if (pattern === "~" || pattern.startsWith("~/")) return join(home, pattern.slice(1));
  return isAbsolute(pattern) ? resolve(pattern) : resolve(baseDir, pattern);
}

/**
 * Regular files matching an absolute glob (`tools`' glob syntax), walked from the folder before its
 * first wildcard: what git ignores, `node_modules` and `.git` are left out, links to folders are not
 * followed, and a match whose real path the scope may not read is left out.
 */
async function globFiles(glob: string, scope: InstructionScope, context: ListContext): Promise<string[]> {
  const segments = glob.split("/");
  const firstWild = segments.findIndex((segment) => /[*?[{]/.test(segment));
  const start = await realPathOf(segments.slice(0, firstWild).join("/") || "/");
  if (start === undefined || refusal(start, scope, context) !== undefined) return [];
  const rest = segments.slice(firstWild);
  const matcher = globToRegExp(rest.join("/"));
  const deepest = rest.includes("**") ? Number.POSITIVE_INFINITY : rest.length;
  const root = isInside(start, context.projectRoot) ? context.projectRoot : start;
  const found: string[] = [];
  for await (const entry of walkFiles({ ops: nodeOperations, workspace: root, start })) {
    if (entry.depth > deepest || found.length > MAX_GLOB_MATCHES) break;
    if (!entry.isFile && !entry.isSymbolicLink) continue;
    if (!matcher.test(entry.pathFromStart)) continue;
    const real = await realPathOf(entry.absolute);
    if (real !== undefined && refusal(real, scope, context) === undefined) found.push(real);
  }
  return found;
}
