import {
  type CallToolResult,
  type Tool as McpToolInfo,
  SdkError,
  SdkErrorCode,
} from "@modelcontextprotocol/client";
import { z } from "zod";
import { formatDuration } from "../text/format-duration.ts";
import { type AnyTool, defineTool, ToolError } from "../tools/tool.ts";
import type { McpConnection } from "./mcp-connection.ts";
import { mcpResultContent } from "./mcp-result.ts";
import { callToolAsTask } from "./task-call.ts";

/** Longer server descriptions are cut: they are sent with every model request. */
export const MAX_DESCRIPTION_CHARS = 2048;
const TITLE_ARGS_CHARS = 200;

export interface McpToolOptions {
  /** The agentry name, `mcp__<server>__<tool>`; also the permission it asks for. */
  name: string;
  /** The tool as the server listed it. */
  info: McpToolInfo;
  connection: McpConnection;
  /** Per call; the run's abort signal ends a call earlier. */
  timeoutMs: number;
  /** The agentry names of all tools of this server, for the message when the server is gone. */
  serverTools: () => readonly string[];
}

/**
 * An MCP server's tool as an agentry tool. Its JSON Schema goes to the model as the server gave it; zod
 * (`z.fromJSONSchema`) only validates the model's arguments, so bad ones get the loop's usual error, and a
 * schema zod cannot read lets every object through (the server validates them). Each call asks for the
 * permission named like the tool, with pattern `*`.
 */
export function mcpTool(options: McpToolOptions): AnyTool {
  const { name, info, connection } = options;
  const inputSchema = modelInputSchema(info.inputSchema);
  return defineTool({
    name,
    description: describe(info),
    schema: argumentSchema(inputSchema),
    inputSchema,
    // No `readOnly`: a server's readOnlyHint is its own claim, not something agentry can vouch for.
    async execute(args, ctx) {
      await ctx.ask({ permission: name, patterns: ["*"], title: `${name} ${shortJson(args)}` });
      const gone = connection.gone();
      if (gone !== undefined) throw goneError(options, gone);
      const params = { name: info.name, arguments: args as Record<string, unknown> };
      let result: CallToolResult;
      try {
        result =
          info.execution?.taskSupport === "required"
            ? await callToolAsTask(connection.client, params, {
                signal: ctx.signal,
                timeoutMs: options.timeoutMs,
                onProgress: ctx.progress,
              })
            : await connection.client.callTool(params, {
                signal: ctx.signal,
                timeout: options.timeoutMs,
                // A tool that keeps reporting progress is working, however long it takes.
                resetTimeoutOnProgress: true,
                onprogress: (progress) => ctx.progress(progressLine(progress)),
              });
      } catch (error) {
        throw callError(error, options, ctx.signal);
      }
      const { text, images } = mcpResultContent(result, connection.server);
      if (result.isError === true) throw new ToolError(text);
      const details: Record<string, unknown> = { server: connection.server, tool: info.name };
      if (result.structuredContent !== undefined) details.structuredContent = result.structuredContent;
      return images.length === 0 ? { content: text, details } : { content: text, images, details };
    },
  });
}

/** `3/10 (30%) copying files`: an MCP progress notification as a progress line. */
export function progressLine({
  progress,
  total,
  message,
}: {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}): string {
  const amount =
    total === undefined || total <= 0
      ? `${progress}`
      : `${progress}/${total} (${Math.round((progress / total) * 100)}%)`;
  return message ? `${amount} ${message}` : amount;
}

/** The server's schema minus `$schema` (some providers reject it); the root must be an object schema. */
function modelInputSchema(schema: McpToolInfo["inputSchema"]): Record<string, unknown> {
  const { $schema: _, ...rest } = schema as Record<string, unknown>;
  if (rest.type === undefined) return { type: "object", ...rest };
  if (rest.type !== "object") return { type: "object", additionalProperties: true };
  return rest;
}

function argumentSchema(inputSchema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(inputSchema as z.core.JSONSchema.JSONSchema);
  } catch {
    return z.looseObject({});
  }
}

function describe(info: McpToolInfo): string {
  const text = (info.description ?? info.title ?? info.annotations?.title ?? "").trim();
  if (text === "") return `The ${info.name} tool of an MCP server.`;
  return text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : text;
}

function shortJson(args: unknown): string {
  const json = JSON.stringify(args) ?? "";
  return json.length > TITLE_ARGS_CHARS ? `${json.slice(0, TITLE_ARGS_CHARS)}…` : json;
}

function goneError(options: McpToolOptions, why: string): ToolError {
  const tools = options.serverTools().join(", ");
  return new ToolError(
    `MCP server "${options.connection.server}" is no longer running: ${why}\nIts tools (${tools}) cannot be used for the rest of this run; go on without them, or report that you need them.`,
  );
}

function callError(error: unknown, options: McpToolOptions, signal: AbortSignal): unknown {
  // The loop reports an aborted call itself.
  if (signal.aborted) return error;
  const gone = options.connection.gone();
  if (gone !== undefined) return goneError(options, gone);
  const server = `MCP server "${options.connection.server}"`;
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.RequestTimeout) {
      return new ToolError(
        `${options.name} did not finish within ${formatDuration(options.timeoutMs)}, so the call was cancelled. Try smaller input, or another way.`,
      );
    }
    if (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected) {
      return goneError(options, "the connection to it was lost.");
    }
  }
  return new ToolError(`${server} could not run ${options.info.name}: ${options.connection.describe(error)}`);
}
