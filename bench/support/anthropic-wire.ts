import type { RecordedRequest } from "../../test/support/model-server.ts";
import { isChildSystem } from "./child-mark.ts";

interface WireBlock {
  type?: string;
}

/** The system prompt of an Anthropic Messages request body, as one string. */
export function wireSystem(body: Record<string, unknown>): string {
  const { system } = body;
  if (typeof system === "string") return system;
  if (Array.isArray(system))
    return system.map((block: { text?: unknown }) => String(block.text ?? "")).join("\n");
  return "";
}

/** Whether the request came from a subagent (its system prompt carries the child preamble). */
export function isChildRequest(request: RecordedRequest): boolean {
  return isChildSystem(wireSystem(request.body));
}

/** How many tool results the conversation holds: a scripted agent's "which turn am I on". */
export function toolResultCount(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : [];
  let count = 0;
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    count += (message.content as WireBlock[]).filter((block) => block.type === "tool_result").length;
  }
  return count;
}

/** How many messages the request carries. */
export function messageCount(body: Record<string, unknown>): number {
  return Array.isArray(body.messages) ? body.messages.length : 0;
}
