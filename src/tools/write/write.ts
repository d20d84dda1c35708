import { readFileSync } from "node:fs";
import { z } from "zod";
import { errorMessage } from "../../text/error-message.ts";
import { formatSize } from "../format-size.ts";
import { defineTool, ToolError } from "../tool.ts";
import { resolveWorkspacePath } from "../workspace-path.ts";

const schema = z.object({
  path: z.string().describe("Workspace path."),
  content: z.string().describe("The full content."),
});

export const writeTool = defineTool({
  name: "write",
  description: readFileSync(new URL("./write.md", import.meta.url), "utf8"),
  schema,
  async execute(args, ctx) {
    const target = await resolveWorkspacePath(ctx, args.path);
    await ctx.ask({ permission: "edit", patterns: [target.relative], title: `write ${target.relative}` });
    const before = await ctx.ops.stat(target.absolute);
    if (before?.isDirectory) {
      throw new ToolError(`${target.relative} is a directory; give the path of a file inside it.`);
    }
    const bytes = Buffer.byteLength(args.content, "utf8");
    await ctx.ops.writeFile(target.absolute, args.content).catch((error: unknown) => {
      throw new ToolError(`Could not write ${target.relative}: ${errorMessage(error)}`);
    });
    const details = { path: target.relative, bytes, created: before === undefined };
    if (before === undefined)
      return { content: `Created ${target.relative} (${formatSize(bytes)}).`, details };
    return {
      content: `Overwrote ${target.relative} (${formatSize(bytes)}; was ${formatSize(before.size)}).`,
      details,
    };
  },
});
