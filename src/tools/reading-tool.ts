import type { z } from "zod";
import { missingPathError } from "./missing-path.ts";
import type { FileStat } from "./operations.ts";
import { type AnyTool, defineTool, type Tool, type ToolContext, type ToolResult } from "./tool.ts";
import { resolveWorkspacePath, type WorkspacePath } from "./workspace-path.ts";

/** The path a reading tool works on, inside the workspace and allowed to be read, and what is there. */
export interface ReadTarget {
  target: WorkspacePath;
  stat: FileStat;
}

/** A tool that reads the workspace at its `path` argument (read, list, glob, grep): read-only. */
export interface ReadingTool<Schema extends z.ZodType<{ path?: string | undefined }>>
  extends Pick<Tool<Schema>, "name" | "description" | "schema"> {
  /** The title of the `read` permission request, for the path relative to the workspace. */
  title(args: z.infer<Schema>, relative: string): string;
  execute(args: z.infer<Schema>, ctx: ToolContext, found: ReadTarget): Promise<ToolResult | string>;
}

/**
 * What the reading tools do first alike, done once: the path (default: the workspace) resolved inside
 * the workspace, the `read` permission for it asked before anything is looked at, and what is there —
 * a missing path is an error naming the closest entries.
 */
export function defineReadingTool<Schema extends z.ZodType<{ path?: string | undefined }>>(
  tool: ReadingTool<Schema>,
): AnyTool {
  return defineTool<Schema>({
    name: tool.name,
    description: tool.description,
    schema: tool.schema,
    readOnly: true,
    async execute(args, ctx) {
      const target = await resolveWorkspacePath(ctx, args.path ?? ".");
      await ctx.ask({
        permission: "read",
        patterns: [target.relative],
        title: tool.title(args, target.relative),
      });
      const stat = await ctx.ops.stat(target.absolute);
      if (stat === undefined) throw await missingPathError(ctx.ops, target);
      return tool.execute(args, ctx, { target, stat });
    },
  });
}
