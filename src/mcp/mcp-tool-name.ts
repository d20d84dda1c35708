import { createHash } from "node:crypto";

/** Providers reject longer tool names (OpenAI and Anthropic: 64). */
export const MAX_TOOL_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

/**
 * `mcp__<server>__<tool>`: characters outside [A-Za-z0-9_-] become `_`, as Claude Code does, so
 * permission rules written for it (`mcp__github__create_issue`) keep working. A name over 64 characters
 * is cut and ends in `_` plus 8 hex digits of a hash of the original server and tool names, so it stays
 * unique and the same in every run.
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${sanitize(server)}__${sanitize(tool)}`;
  return name.length <= MAX_TOOL_NAME_LENGTH ? name : hashedMcpToolName(server, tool);
}

/**
 * The hashed form of `mcpToolName`, for when the plain name is taken: two tools whose names differ only
 * in replaced characters (`a.b` and `a_b`), or `mcp__a__b__c` from server `a` and from server `a__b`.
 */
export function hashedMcpToolName(server: string, tool: string): string {
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, HASH_LENGTH);
  const base = `mcp__${sanitize(server)}__${sanitize(tool)}`;
  return `${base.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

function sanitize(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}
