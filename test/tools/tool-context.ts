import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { PermissionRequest } from "../../src/permissions/types.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import type { Operations } from "../../src/tools/operations.ts";
import type { AnyTool, ToolContext, ToolResult } from "../../src/tools/tool.ts";
import { tempDir } from "../support/temp-dir.ts";

/** A temp dir holding `ws/` (the workspace) and `outside/` (a sibling the tools must never touch). */
export interface Sandbox {
  workspace: string;
  outside: string;
  /**
   * @deprecated Not needed: the folder goes when the test finishes (`tempDir`). Kept so tests written
   * before that still compile; it removes it at once.
   */
  cleanup(): Promise<void>;
}

/** Removed when the test finishes (see `tempDir`). */
export async function makeSandbox(): Promise<Sandbox> {
  const base = await tempDir("agentry-tools-");
  const workspace = join(base, "ws");
  const outside = join(base, "outside");
  await mkdir(workspace);
  await mkdir(outside);
  return { workspace, outside, cleanup: () => rm(base, { recursive: true, force: true, maxRetries: 3 }) };
}

export interface TestContext {
  ctx: ToolContext;
  asks: PermissionRequest[];
  progress: string[];
}

/** A real ToolContext over `nodeOperations` (or `options.ops`); `ask` records every request and allows it unless told otherwise. */
export function makeContext(
  workspace: string,
  options: {
    ask?: (request: PermissionRequest) => Promise<void>;
    signal?: AbortSignal;
    ops?: Operations;
  } = {},
): TestContext {
  const asks: PermissionRequest[] = [];
  const progress: string[] = [];
  const ctx: ToolContext = {
    workspace,
    ops: options.ops ?? nodeOperations,
    signal: options.signal ?? new AbortController().signal,
    async ask(request) {
      asks.push(request);
      await options.ask?.(request);
    },
    progress: (update) => progress.push(update),
    emit: () => {},
    agent: { path: ["main"], name: "main", sessionId: "test-session", depth: 0 },
    toolCallId: "call-1",
  };
  return { ctx, asks, progress };
}

/** Validates the arguments with the tool's schema (as the loop does), then runs it. */
export async function runTool(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const result = await tool.execute(tool.schema.parse(args), ctx);
  return typeof result === "string" ? { content: result } : result;
}
