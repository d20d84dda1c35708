import { readFileSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { z } from "zod";
import { isInside } from "../../text/path-inside.ts";
import { defineReadingTool } from "../reading-tool.ts";
import { ToolError } from "../tool.ts";
import { globToRegExp } from "../walk/glob-pattern.ts";
import { comparePaths, toPosix, walkFiles } from "../walk/walk-files.ts";
import { placeName } from "../workspace-path.ts";

export const GLOB_MAX_RESULTS = 1000;

const schema = z.object({
  pattern: z.string().min(1).describe("Glob relative to path."),
  path: z.string().optional().describe("Directory (default: the workspace)."),
});

export const globTool = defineReadingTool({
  name: "glob",
  description: readFileSync(new URL("./glob.md", import.meta.url), "utf8"),
  schema,
  title: (args, relative) => `glob ${args.pattern} in ${relative}`,
  async execute(args, ctx, { target: dir, stat }) {
    if (!stat.isDirectory) throw new ToolError(`${dir.relative} is a file; glob searches a directory.`);

    let pattern = args.pattern;
    if (isAbsolute(pattern)) {
      // Models often glue the workspace path in front; accept that as long as it stays inside `path`.
      if (!isInside(pattern, dir.absolute)) {
        throw new ToolError(
          `The pattern ${JSON.stringify(pattern)} is an absolute path outside ${dir.absolute}; give a pattern relative to path (e.g. \`**/*.ts\`).`,
        );
      }
      pattern = toPosix(relative(dir.absolute, pattern));
    }
    const regex = globToRegExp(pattern.replace(/^(\.\/)+/, ""));

    const matches: Array<{ path: string; mtimeMs: number }> = [];
    for await (const entry of walkFiles({
      ops: ctx.ops,
      workspace: dir.root,
      start: dir.absolute,
      signal: ctx.signal,
    })) {
      if (entry.isDirectory || !regex.test(entry.pathFromStart)) continue;
      const entryStat = await ctx.ops.lstat(entry.absolute);
      matches.push({ path: entry.path, mtimeMs: entryStat?.mtimeMs ?? 0 });
    }
    const details = { matches: matches.length };
    if (matches.length === 0)
      return {
        content: `No files match ${JSON.stringify(args.pattern)} in ${placeName(dir.relative)}.`,
        details,
      };
    matches.sort((a, b) => b.mtimeMs - a.mtimeMs || comparePaths(a.path, b.path));
    let content = matches
      .slice(0, GLOB_MAX_RESULTS)
      .map((match) => match.path)
      .join("\n");
    if (matches.length > GLOB_MAX_RESULTS) {
      content += `\n\n(Showing the ${GLOB_MAX_RESULTS} most recently modified of ${matches.length} matches; use a more specific pattern or path to see the others.)`;
    }
    return { content, details };
  },
});
