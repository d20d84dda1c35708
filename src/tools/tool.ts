import type { z } from "zod";
import type { AgentEvent } from "../contracts/events.ts";
import { AgentryError } from "../errors/agentry-error.ts";
import type { ImagePart } from "../model/messages.ts";
import type { PermissionRequest } from "../permissions/types.ts";
import type { CommandPolicy } from "../sandbox/policy.ts";
import type { Operations } from "./operations.ts";

/** Who is calling a tool. */
export interface AgentIdentity {
  /** e.g. ["main", "explore-2"] */
  path: string[];
  /** The agent definition's name (`main` for the root). */
  name: string;
  sessionId: string;
  depth: number;
}

export interface ToolContext {
  /** Absolute real path of the workspace root; file tools are confined to it. */
  workspace: string;
  /** File and process I/O. */
  ops: Operations;
  /** How this agent's commands run (sandbox, environment); absent: no sandbox, the default environment. */
  commands?: CommandPolicy;
  signal: AbortSignal;
  /** Resolves when allowed; throws `PermissionDeniedError` when denied. */
  ask(request: PermissionRequest): Promise<void>;
  /** A short progress line (e.g. streamed bash output) shown to the user, never to the model. */
  progress(update: string): void;
  /** Emits an event into the run's stream (subagents use it to bubble their events up). */
  emit(event: AgentEvent): void;
  agent: AgentIdentity;
  toolCallId: string;
}

export interface ToolResult {
  /** Text returned to the model (the loop truncates it). */
  content: string;
  /**
   * Images returned to the model with the text (a screenshot, an image file). A model that reads no
   * images gets a line of text for each instead; `content` should say what they show where it can.
   */
  images?: ImagePart[];
  /** Structured data for UIs and transcripts; never sent to the model. */
  details?: Record<string, unknown>;
}

/**
 * A tool. `schema` is the single source of the JSON Schema sent to the model and of the type of `args`.
 * `execute` throws on failure; the loop turns the throw into an error tool result.
 */
export interface Tool<Schema extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly schema: Schema;
  /**
   * The JSON Schema sent to the model as is, for a tool whose schema comes from elsewhere (e.g. an MCP
   * server); `schema` then only validates the arguments.
   */
  readonly inputSchema?: Record<string, unknown>;
  /** True when the tool never changes files or runs processes. */
  readonly readOnly?: boolean;
  execute(args: z.infer<Schema>, ctx: ToolContext): Promise<ToolResult | string>;
}

/** Erases the argument type so tools of different schemas fit in one list. */
export type AnyTool = Tool<z.ZodType>;

export function defineTool<Schema extends z.ZodType>(tool: Tool<Schema>): AnyTool {
  return tool as unknown as AnyTool;
}

/** A tool failure whose message is meant for the model as-is. */
export class ToolError extends AgentryError {
  override readonly name = "ToolError";
  readonly kind = "model";
}
