import type { AgentConfig } from "../../agent/config.ts";
import type { UserMessage } from "../../model/messages.ts";
import type { McpAccess } from "../prompt-attachments.ts";
import { rootToolContext } from "../root-tool-context.ts";
import { expandMentions } from "./expand-mentions.ts";
import { fileMentionResolver } from "./file-mention.ts";
import { mcpResourceResolver } from "./mcp-resource-mention.ts";
import type { MentionResolver } from "./mention.ts";

/**
 * The resolvers of a prompt's mentions, first match wins. Kinds that claim a mention by its form (an
 * image by its extension, `server:uri` by a connected MCP server's name) go before files, which take
 * any path that exists.
 */
export function mentionResolvers(mcp?: McpAccess): MentionResolver[] {
  return [mcpResourceResolver(mcp), fileMentionResolver];
}

export interface PromptMessageOptions {
  /** The root agent: its workspace, tools' operations, command policy and permission gate. */
  config: AgentConfig;
  signal: AbortSignal;
  /** The session the prompt goes to (empty before a new one is created). */
  sessionId: string;
  /** Where each inlined mention is named for the person (stderr). */
  say: (line: string) => void;
  resolvers?: readonly MentionResolver[];
  /** The run's MCP servers, for `@server:uri`. */
  mcp?: McpAccess | undefined;
}

/** The user message of `prompt`, its `@` mentions inlined (see `expandMentions`); throws `MentionError`. */
export async function promptMessage(prompt: string, options: PromptMessageOptions): Promise<UserMessage> {
  const context = rootToolContext(options.config, options.signal, {
    sessionId: options.sessionId,
    toolCallId: "mention",
  });
  const { message, notes } = await expandMentions(
    prompt,
    options.resolvers ?? mentionResolvers(options.mcp),
    context,
  );
  for (const note of notes) options.say(`@ ${note}`);
  return message;
}
