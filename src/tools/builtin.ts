import { type BashToolOptions, createBashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { listTool } from "./list.ts";
import { readTool } from "./read.ts";
import type { AnyTool } from "./tool.ts";
import { writeTool } from "./write.ts";

/** The built-in tools, in the order they are offered to the model. */
export function builtinTools(options: { bash?: BashToolOptions } = {}): AnyTool[] {
  return [createBashTool(options.bash), readTool, writeTool, editTool, grepTool, globTool, listTool];
}
