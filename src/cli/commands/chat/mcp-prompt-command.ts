import { type McpPromptInfo, promptArguments } from "../../../mcp/prompts.ts";
import { errorMessage } from "../../../text/error-message.ts";
import type { Attachment, McpAccess } from "../../prompt-attachments.ts";

/** The MCP prompt a chat command names (`/mcp__<server>__<prompt>`), if any server offers one. */
export function findMcpPrompt(name: string, mcp: McpAccess | undefined): McpPromptInfo | undefined {
  const wanted = name.toLowerCase();
  return mcp?.servers
    .flatMap((server) => server.prompts)
    .find((prompt) => prompt.command.toLowerCase() === wanted);
}

/**
 * `/mcp__<server>__<prompt> [arguments]`: the server's prompt, filled in, as the user's next turn (its
 * text and images), or the problem to show instead (a missing argument, the server's error).
 */
export async function mcpPromptTurn(
  prompt: McpPromptInfo,
  args: string,
  mcp: McpAccess,
  signal: AbortSignal,
): Promise<{ text: string; attachments: Attachment[] } | { problem: string }> {
  const parsed = promptArguments(prompt, args);
  if ("problem" in parsed) return parsed;
  try {
    const filled = await mcp.getPrompt(prompt.server, prompt.name, parsed.values, signal);
    return { text: filled.text, attachments: filled.images };
  } catch (error) {
    return { problem: `/${prompt.command}: ${errorMessage(error)}` };
  }
}
