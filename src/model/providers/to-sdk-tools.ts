import type { JSONSchema7, LanguageModelV4FunctionTool } from "@ai-sdk/provider";
import type { ToolSpec } from "../model.ts";

/** Our tool specs → the AI SDK's function tools. Undefined for none, so no empty `tools: []` is sent. */
export function toSdkTools(tools: ToolSpec[]): LanguageModelV4FunctionTool[] | undefined {
  if (!tools.length) return undefined;
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    // Our schemas come from zod's JSON Schema output, which is JSON Schema 7 compatible.
    inputSchema: tool.inputSchema as JSONSchema7,
  }));
}
