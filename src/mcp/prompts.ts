import type { Prompt } from "@modelcontextprotocol/client";
import type { ImagePart } from "../model/messages.ts";
import type { McpConnection } from "./mcp-connection.ts";
import { mcpResultContent } from "./mcp-result.ts";
import { mcpToolName } from "./mcp-tool-name.ts";

/** A prompt a server offers, as a chat command: `/mcp__<server>__<prompt> [arguments]` (Claude Code's form). */
export interface McpPromptInfo {
  server: string;
  name: string;
  /** The command without its slash, named as tools are: `mcp__<server>__<prompt>`. */
  command: string;
  description?: string;
  arguments: Array<{ name: string; description?: string; required: boolean }>;
}

export function promptInfo(server: string, prompt: Prompt): McpPromptInfo {
  const description = prompt.description ?? prompt.title;
  return {
    server,
    name: prompt.name,
    command: mcpToolName(server, prompt.name),
    ...(description === undefined ? {} : { description }),
    arguments: (prompt.arguments ?? []).map((argument) => ({
      name: argument.name,
      required: argument.required === true,
      ...(argument.description === undefined ? {} : { description: argument.description }),
    })),
  };
}

/**
 * The arguments of a prompt command: `name=value` pairs, or values in the order the prompt lists its
 * arguments (as Claude Code takes them; `"quoted values"` may hold spaces). The problem, when a required
 * one is missing or a name is unknown.
 */
export function promptArguments(
  info: McpPromptInfo,
  text: string,
): { values: Record<string, string> } | { problem: string } {
  const words = [...text.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? "");
  const values: Record<string, string> = {};
  for (const word of words) {
    const named = /^([A-Za-z_][\w-]*)=(.*)$/s.exec(word);
    if (named?.[1] !== undefined && info.arguments.some((argument) => argument.name === named[1])) {
      values[named[1]] = named[2] ?? "";
      continue;
    }
    const next = info.arguments.filter((argument) => !(argument.name in values))[0];
    if (next === undefined)
      return {
        problem: `/${info.command} takes ${usage(info) || "no arguments"}; "${word}" is one too many.`,
      };
    values[next.name] = word;
  }
  const missing = info.arguments.filter((argument) => argument.required && !(argument.name in values));
  if (missing.length > 0)
    return {
      problem: `/${info.command} needs ${missing.map((argument) => argument.name).join(", ")}: /${info.command} ${usage(info)}`,
    };
  return { values };
}

/** `<city> [state]`: a prompt's arguments, the optional ones in brackets. */
export function usage(info: McpPromptInfo): string {
  return info.arguments
    .map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`))
    .join(" ");
}

/**
 * A server's prompt, filled in, as the text and images of a user turn. Its messages are joined in
 * order; one the server gives as the assistant's is marked so.
 */
export async function getPrompt(
  connection: McpConnection,
  name: string,
  values: Record<string, string>,
  options: { signal?: AbortSignal; timeoutMs: number },
): Promise<{ text: string; images: ImagePart[] }> {
  const result = await connection.client.getPrompt(
    { name, arguments: values },
    { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) },
  );
  const images: ImagePart[] = [];
  const texts = result.messages.map((message) => {
    const content = mcpResultContent({ content: [message.content] }, connection.server);
    images.push(...content.images);
    return message.role === "assistant" ? `(assistant) ${content.text}` : content.text;
  });
  return { text: texts.join("\n\n"), images };
}
