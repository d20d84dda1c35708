import { type BashToolOptions, createBashTool } from "./bash/bash.ts";
import { editTool } from "./edit/edit.ts";
import { globTool } from "./glob/glob.ts";
import { grepTool } from "./grep/grep.ts";
import { listTool } from "./list/list.ts";
import { readTool } from "./read/read.ts";
import type { AnyTool } from "./tool.ts";
import { writeTool } from "./write/write.ts";

/** The built-in tools, in the order they are offered to the model. */
export function builtinTools(options: { bash?: BashToolOptions } = {}): AnyTool[] {
  return [createBashTool(options.bash), readTool, writeTool, editTool, grepTool, globTool, listTool];
}
