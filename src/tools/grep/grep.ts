import { readFileSync } from "node:fs";
import { z } from "zod";
import { hasByteEscapes } from "../byte-names.ts";
import { defineReadingTool } from "../reading-tool.ts";
import { ToolError } from "../tool.ts";
import { placeName } from "../workspace-path.ts";
import { filesToSearch } from "./grep-files.ts";
import { formatGrepResults } from "./grep-format.ts";
import { grepWithJs } from "./grep-js.ts";
import type { FileMatches, GrepQuery } from "./grep-query.ts";
import { leftOutNote, readableFiles } from "./grep-readable.ts";
import { grepWithRipgrep, hasRipgrep } from "./grep-ripgrep.ts";

const schema = z.object({
  pattern: z.string().min(1).describe("Regex (escape literal `(`, `.`, `{`)."),
  path: z.string().optional().describe("File or folder (default: the workspace)."),
  glob: z.string().optional().describe("File filter, e.g. `src/**/*.ts`."),
  output_mode: z
    .enum(["files_with_matches", "content", "count"])
    .optional()
    .describe("Matching files (default), lines as `path:line:text`, or counts."),
  "-i": z.boolean().optional().describe("Ignore case."),
  context: z.number().int().min(0).max(100).optional().describe("Lines around each match."),
  head_limit: z.number().int().min(1).optional().describe("First N results only."),
});

export const grepTool = defineReadingTool({
  name: "grep",
  description: readFileSync(new URL("./grep.md", import.meta.url), "utf8"),
  schema,
  title: (args, relative) => `grep ${args.pattern} in ${relative}`,
  async execute(args, ctx, { target, stat }) {
    const mode = args.output_mode ?? "files_with_matches";
    const query: GrepQuery = {
      pattern: args.pattern,
      root: target.root,
      target: target.absolute,
      targetRelative: target.relative,
      targetIsFile: !stat.isDirectory,
      mode,
      ignoreCase: args["-i"] === true,
      context: args.context ?? 0,
      ...(args.glob === undefined ? {} : { glob: args.glob }),
    };
    const walked = await filesToSearch(ctx.ops, query, ctx.signal);
    // The target itself was asked above; the files a folder search finds are settled without a prompt.
    const readable = query.targetIsFile
      ? { files: walked, denied: [], needsApproval: [] }
      : await readableFiles(ctx, walked);
    const { files } = readable;
    // ripgrep cannot open a name given in the `\xHH` form of names that are not UTF-8 (byte-names.ts);
    // the JavaScript engine reads them through the Operations. A pattern only ripgrep's syntax accepts
    // still goes to ripgrep, which then finds nothing in those few files.
    const ripgrep = await hasRipgrep(ctx.ops, target.root);
    let engine: "ripgrep" | "js" =
      ripgrep && !files.some((file) => hasByteEscapes(file.path)) ? "ripgrep" : "js";
    let found: FileMatches[];
    if (engine === "ripgrep") found = await grepWithRipgrep(ctx.ops, query, files, ctx.signal);
    else {
      try {
        found = await grepWithJs(ctx.ops, query, files, ctx.signal);
      } catch (error) {
        if (!(ripgrep && error instanceof ToolError)) throw error;
        engine = "ripgrep";
        found = await grepWithRipgrep(ctx.ops, query, files, ctx.signal);
      }
    }
    const lines = formatGrepResults(found, mode, query.context);

    const note = leftOutNote(readable);
    const details = {
      engine,
      results: lines.length,
      ...(note === "" ? {} : { leftOut: { denied: readable.denied, needsApproval: readable.needsApproval } }),
    };
    if (lines.length === 0) {
      return {
        content: `No matches for ${JSON.stringify(args.pattern)} in ${placeName(target.relative)}.${note}`,
        details,
      };
    }
    const shown = args.head_limit === undefined ? lines : lines.slice(0, args.head_limit);
    let content = shown.join("\n");
    if (mode === "files_with_matches") {
      content = `Found ${lines.length} file${lines.length === 1 ? "" : "s"}\n${content}`;
    }
    if (shown.length < lines.length) {
      const unit = mode === "content" ? "lines" : "files";
      content += `\n\n(Showing the first ${shown.length} of ${lines.length} ${unit}; raise head_limit or narrow the search to see more.)`;
    }
    return { content: content + note, details };
  },
});
