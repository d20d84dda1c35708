import { readFileSync } from "node:fs";
import { z } from "zod";
import { errorMessage } from "../../text/error-message.ts";
import { formatSize } from "../format-size.ts";
import { missingPathError } from "../missing-path.ts";
import { looksBinary } from "../text-detection.ts";
import { defineTool, ToolError } from "../tool.ts";
import { resolveWorkspacePath } from "../workspace-path.ts";
import { findOccurrences, lineNumberAt, notFoundHint } from "./edit-matching.ts";

const schema = z.object({
  path: z.string().describe("Workspace path."),
  old_string: z.string().describe("Text to replace."),
  new_string: z.string().describe("Replacement text."),
  replace_all: z.boolean().optional().describe("Replace every occurrence."),
});

export const editTool = defineTool({
  name: "edit",
  description: readFileSync(new URL("./edit.md", import.meta.url), "utf8"),
  schema,
  async execute(args, ctx) {
    if (args.old_string === args.new_string) {
      throw new ToolError("old_string and new_string are identical, so there is nothing to change.");
    }
    const target = await resolveWorkspacePath(ctx, args.path);
    await ctx.ask({ permission: "edit", patterns: [target.relative], title: `edit ${target.relative}` });
    const stat = await ctx.ops.stat(target.absolute);
    const write = async (text: string): Promise<void> => {
      await ctx.ops.writeFile(target.absolute, text).catch((error: unknown) => {
        throw new ToolError(`Could not write ${target.relative}: ${errorMessage(error)}`);
      });
    };

    if (stat === undefined) {
      if (args.old_string === "") {
        await write(args.new_string);
        const bytes = Buffer.byteLength(args.new_string, "utf8");
        return {
          content: `Created ${target.relative} (${formatSize(bytes)}).`,
          details: { path: target.relative, created: true, replacements: 0 },
        };
      }
      const missing = await missingPathError(ctx.ops, target);
      throw new ToolError(
        `${missing.message} To create a new file, use write (or edit with an empty old_string).`,
      );
    }
    if (stat.isDirectory) throw new ToolError(`${target.relative} is a directory; edit works on files.`);

    const data = await ctx.ops.readFile(target.absolute);
    if (looksBinary(data))
      throw new ToolError(`${target.relative} looks like a binary file; edit works on text.`);
    const content = data.toString("utf8");
    if (args.old_string === "") {
      if (content !== "") {
        throw new ToolError(
          `old_string is empty, but ${target.relative} already exists and is not empty. Give the exact text to replace, or use write to replace the whole file.`,
        );
      }
      await write(args.new_string);
      return {
        content: `Wrote ${target.relative} (it was empty).`,
        details: { path: target.relative, created: false, replacements: 1 },
      };
    }

    const match = findOccurrences(content, args.old_string, args.new_string);
    if (match === undefined) {
      throw new ToolError(
        `old_string was not found in ${target.relative}. ${notFoundHint(content, args.old_string)}`,
      );
    }
    const { oldText, newText, positions } = match;
    if (positions.length > 1 && args.replace_all !== true) {
      const lines = positions.slice(0, 10).map((position) => lineNumberAt(content, position));
      throw new ToolError(
        `old_string occurs ${positions.length} times in ${target.relative} (lines ${lines.join(", ")}${positions.length > 10 ? ", …" : ""}). ` +
          "Include more surrounding lines to make it unique, or set replace_all to true to replace every occurrence.",
      );
    }
    const first = positions[0]!;
    const updated =
      args.replace_all === true
        ? content.split(oldText).join(newText)
        : content.slice(0, first) + newText + content.slice(first + oldText.length);
    await write(updated);
    const count = positions.length;
    return {
      content: `Edited ${target.relative}: replaced ${count} occurrence${count === 1 ? "" : "s"} (first at line ${lineNumberAt(content, first)}).`,
      details: { path: target.relative, created: false, replacements: count },
    };
  },
});
