import type { z } from "zod";
import { type AnyTool, defineTool, type ToolContext, type ToolResult } from "../../tools/tool.ts";
import type { TaskApi } from "../tree/task-api.ts";

export interface SpawnToolSpec<Schema extends z.ZodType> {
  name: string;
  /** What the model reads: the `.md` beside the tool. */
  description: string;
  schema: Schema;
  readOnly?: boolean;
}

/**
 * A tool of the spawn family. They are hidden at the depth limit; a call that reaches one anyway (a
 * tool list built by hand, a forged call) is refused before `run`.
 */
export function spawnTool<Schema extends z.ZodType>(
  tasks: TaskApi,
  spec: SpawnToolSpec<Schema>,
  run: (args: z.infer<Schema>, ctx: ToolContext) => Promise<ToolResult | string>,
): AnyTool {
  return defineTool({
    ...spec,
    execute: (args, ctx) => {
      tasks.checkDepth(ctx);
      return run(args, ctx);
    },
  });
}
