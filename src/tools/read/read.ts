import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { z } from "zod";
import { sniffImage } from "../../model/images.ts";
import { formatSize } from "../format-size.ts";
import type { Operations } from "../operations.ts";
import { defineReadingTool } from "../reading-tool.ts";
import { imageTypeOf, looksBinary, splitLines } from "../text-detection.ts";
import { ToolError } from "../tool.ts";
import { checkImageSize, fileHead, readImage } from "./read-image.ts";
import { readLineWindow } from "./read-lines.ts";

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE_LENGTH = 2000;
/** Files above this are not loaded: only the lines asked for are read, streaming (`read-lines.ts`). */
export const READ_MAX_BYTES = 64 * 1024 * 1024;

const schema = z.object({
  path: z.string().describe("Workspace path."),
  offset: z.number().int().min(1).optional().describe("First line (1-based)."),
  limit: z.number().int().min(1).optional().describe(`Lines to return (default ${READ_DEFAULT_LIMIT}).`),
});

export const readTool = defineReadingTool({
  name: "read",
  description: readFileSync(new URL("./read.md", import.meta.url), "utf8"),
  schema,
  title: (_args, relative) => `read ${relative}`,
  async execute(args, ctx, { target, stat }) {
    if (stat.isDirectory)
      throw new ToolError(`${target.relative} is a directory, use list to see its contents.`);
    if (!stat.isFile)
      throw new ToolError(`${target.relative} is not a regular file (a device, socket or pipe).`);
    if (stat.size > READ_MAX_BYTES) {
      const image = sniffImage(await fileHead(ctx.ops, target.absolute));
      // Far past the size an image may be sent at: refused with its size and how to shrink it.
      if (image !== undefined) checkImageSize(target.relative, image, stat.size);
      return readWindow(ctx.ops, target.relative, target.absolute, stat.size, args);
    }
    const data = await ctx.ops.readFile(target.absolute);
    const image = sniffImage(data);
    if (image !== undefined) return readImage(target.relative, data, image);
    const otherImage = imageTypeOf(extname(target.absolute));
    if (otherImage !== undefined) throw notShownImage(target.relative, otherImage, stat.size);
    if (looksBinary(data)) throw binaryFile(target.relative, data.length);
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

/**
 * A file too large to load: only the lines asked for are read, chunk by chunk, and reading stops after
 * them, so the line count of the whole file stays unknown.
 */
async function readWindow(
  ops: Operations,
  relative: string,
  absolute: string,
  size: number,
  args: { offset?: number | undefined; limit?: number | undefined },
) {
  const offset = args.offset ?? 1;
  const window = await readLineWindow(ops.readChunks(absolute), {
    offset,
    limit: args.limit ?? READ_DEFAULT_LIMIT,
    maxLineBytes: READ_MAX_LINE_LENGTH * 4,
  });
  if (window.kind === "binary") {
    if (window.afterLine === 0) throw binaryFile(relative, size);
    throw new ToolError(
      `${relative} has binary data after line ${window.afterLine} (byte ${window.byte.toLocaleString("en-US")}); read shows text only. Inspect it with bash (e.g. \`xxd -s ${window.byte} ${relative} | head\`).`,
    );
  }
  if (window.lines.length === 0) {
    throw new ToolError(
      `offset ${offset} is past the end of ${relative}, which has ${window.totalLines} line${window.totalLines === 1 ? "" : "s"}.`,
    );
  }
  const end = offset + window.lines.length - 1;
  let content = window.lines
    .map((line, index) =>
      numberLine(
        offset + index,
        line.text,
        line.cut ? `the line has ${line.bytes.toLocaleString("en-US")} bytes` : undefined,
      ),
    )
    .join("\n");
  if (window.binaryFrom !== undefined) {
    content += `\n\n(Showing lines ${offset}-${end}; binary data follows from byte ${window.binaryFrom.toLocaleString("en-US")}, and read shows text only.)`;
  } else if (window.more) {
    content += `\n\n(Showing lines ${offset}-${end} of a ${formatSize(size)} file, read only this far. Use offset=${end + 1} to read more.)`;
  }
  const details = { path: relative, startLine: offset, endLine: end, bytes: size };
  return {
    content,
    details: window.totalLines > 0 ? { ...details, totalLines: window.totalLines } : details,
  };
}

/** A file named as an image that `read` does not show: another format, or bytes that are no image. */
function notShownImage(relative: string, format: string, size: number): ToolError {
  if (["PNG", "JPEG", "GIF", "WebP"].includes(format)) {
    return new ToolError(
      `${relative} is named like a ${format} image (${formatSize(size)}), but its bytes are not one (a damaged or mislabelled file); inspect it with bash (e.g. \`file ${relative}\`).`,
    );
  }
  return new ToolError(
    `${relative} is a ${format} image (${formatSize(size)}); read shows PNG, JPEG, GIF and WebP images only. Convert it first (e.g. \`magick ${relative} out.png\`) and read that.`,
  );
}

function binaryFile(relative: string, size: number): ToolError {
  return new ToolError(
    `${relative} looks like a binary file (${formatSize(size)}); read shows text only. Inspect it with bash (e.g. \`file\` or \`xxd ${relative} | head\`).`,
  );
}

/**
 * The line's number, a tab, the line (cut when very long). Unlike `cat -n`, the number is not padded
 * to 6 columns: the padding cost ~1 token a line on every file read, and told the model nothing.
 * `cutNote` describes a line that was already cut while it was read.
 */
function numberLine(number: number, line: string, cutNote?: string): string {
  let text = line;
  if (cutNote !== undefined)
    text = `${line.slice(0, READ_MAX_LINE_LENGTH)}… [line cut at ${READ_MAX_LINE_LENGTH} characters; ${cutNote}]`;
  else if (line.length > READ_MAX_LINE_LENGTH)
    text = `${line.slice(0, READ_MAX_LINE_LENGTH)}… [line cut at ${READ_MAX_LINE_LENGTH} of ${line.length} characters]`;
  return `${number}\t${text}`;
}
