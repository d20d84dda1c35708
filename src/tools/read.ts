import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { z } from "zod";
import { formatSize } from "./format-size.ts";
import { missingPathError } from "./missing-path.ts";
import { imageTypeOf, looksBinary, splitLines } from "./text-detection.ts";
import { defineTool, ToolError } from "./tool.ts";
import { resolveWorkspacePath } from "./workspace-path.ts";

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE_LENGTH = 2000;
/** Files above this are refused outright; grep or bash (`head`, `sed -n`) can look inside them. */
export const READ_MAX_BYTES = 64 * 1024 * 1024;

const schema = z.object({
  path: z.string().describe("The file to read: relative to the workspace root, or absolute inside it."),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("1-based line number to start at (default 1). Use it with limit to page through long files."),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`How many lines to return (default ${READ_DEFAULT_LIMIT}).`),
});

export const readTool = defineTool({
  name: "read",
  description: readFileSync(new URL("./read.md", import.meta.url), "utf8"),
  schema,
  readOnly: true,
  async execute(args, ctx) {
    const target = await resolveWorkspacePath(ctx, args.path);
    await ctx.ask({ permission: "read", patterns: [target.relative], title: `read ${target.relative}` });
    const stat = await ctx.ops.stat(target.absolute);
    if (stat === undefined) throw await missingPathError(ctx.ops, target);
    if (stat.isDirectory)
      throw new ToolError(`${target.relative} is a directory, use list to see its contents.`);
    if (!stat.isFile)
      throw new ToolError(`${target.relative} is not a regular file (a device, socket or pipe).`);
    const image = imageTypeOf(extname(target.absolute));
    if (image !== undefined) {
      throw new ToolError(
        `${target.relative} is a ${image} image (${formatSize(stat.size)}); read returns text only and cannot show it.`,
      );
    }
    if (stat.size > READ_MAX_BYTES) {
      throw new ToolError(
        `${target.relative} is too large to read (${formatSize(stat.size)}). Search it with grep, or print a slice with bash (e.g. \`sed -n '100,200p' ${target.relative}\`).`,
      );
    }
    const data = await ctx.ops.readFile(target.absolute);
    if (looksBinary(data)) {
      throw new ToolError(
        `${target.relative} looks like a binary file (${formatSize(data.length)}); read shows text only. Inspect it with bash (e.g. \`file\` or \`xxd ${target.relative} | head\`).`,
      );
    }
    const lines = splitLines(data.toString("utf8").replace(/^\uFEFF/, ""));
    const details = { path: target.relative, totalLines: lines.length };
    if (lines.length === 0) return { content: `${target.relative} is empty.`, details };
    const offset = args.offset ?? 1;
    if (offset > lines.length) {
      throw new ToolError(
        `offset ${offset} is past the end of ${target.relative}, which has ${lines.length} line${lines.length === 1 ? "" : "s"}.`,
      );
    }
    const end = Math.min(lines.length, offset - 1 + (args.limit ?? READ_DEFAULT_LIMIT));
    const numbered = lines.slice(offset - 1, end).map((line, index) => numberLine(offset + index, line));
    let content = numbered.join("\n");
    if (end < lines.length) {
      content += `\n\n(Showing lines ${offset}-${end} of ${lines.length}. Use offset=${end + 1} to read more.)`;
    }
    return { content, details: { ...details, startLine: offset, endLine: end } };
  },
});

/** `cat -n` layout: the number right-aligned in 6 columns, a tab, the line (cut when very long). */
function numberLine(number: number, line: string): string {
  const text =
    line.length > READ_MAX_LINE_LENGTH
      ? `${line.slice(0, READ_MAX_LINE_LENGTH)}… [line cut at ${READ_MAX_LINE_LENGTH} of ${line.length} characters]`
      : line;
  return `${String(number).padStart(6)}\t${text}`;
}
