import type { Protocol } from "./model-server.ts";

/**
 * The check the real APIs make on a conversation before anything else, and answer with HTTP 400 when
 * it fails: every tool call of an assistant message is answered right after it, and every tool result
 * answers a call of the assistant message right before it. Returns the provider's wording of the
 * first problem, or `undefined` when the history is well paired.
 */
export function toolPairingProblem(protocol: Protocol, body: Record<string, unknown>): string | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  if (protocol === "anthropic") return anthropicProblem(messages);
  if (protocol === "openai-chat") return openaiChatProblem(messages);
  return responsesProblem(Array.isArray(body.input) ? (body.input as unknown[]) : []);
}

function anthropicProblem(messages: unknown[]): string | undefined {
  let open: string[] = [];
  for (const [index, message] of messages.entries()) {
    const role = field(message, "role");
    const blocks = contentBlocks(message);
    const results = blocks.filter((b) => b.type === "tool_result").map((b) => String(b.tool_use_id));
    if (open.length > 0) {
      const missing = open.filter((id) => !results.includes(id));
      if (role !== "user" || missing.length > 0)
        return `messages.${index - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ") || open.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
    const stray = results.filter((id) => !open.includes(id));
    if (stray.length > 0)
      return `messages.${index}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(", ")}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    open = role === "assistant" ? blocks.filter((b) => b.type === "tool_use").map((b) => String(b.id)) : [];
  }
  return open.length > 0
    ? `messages: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${open.join(", ")}.`
    : undefined;
}

/**
 * The Responses API (stateless): every `function_call` item needs its `function_call_output` later in
 * the input. An output without its call is refused by `openai-responses-input.ts` already.
 */
function responsesProblem(input: unknown[]): string | undefined {
  const outputs = new Set(
    input
      .filter((item) => field(item, "type") === "function_call_output")
      .map((item) => String(field(item, "call_id"))),
  );
  for (const item of input) {
    if (field(item, "type") !== "function_call") continue;
    const id = String(field(item, "call_id"));
    if (!outputs.has(id)) return `No tool output found for function call ${id}.`;
  }
  return undefined;
}

function openaiChatProblem(messages: unknown[]): string | undefined {
  let open: string[] = [];
  for (const message of messages) {
    const role = field(message, "role");
    if (role === "tool") {
      const id = String(field(message, "tool_call_id"));
      if (!open.includes(id))
        return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
      open = open.filter((other) => other !== id);
      continue;
    }
    if (open.length > 0)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(", ")}`;
    const calls = field(message, "tool_calls");
    open = role === "assistant" && Array.isArray(calls) ? calls.map((call) => String(field(call, "id"))) : [];
  }
  return open.length > 0
    ? `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(", ")}`
    : undefined;
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function contentBlocks(message: unknown): Array<Record<string, unknown>> {
  const content = field(message, "content");
  if (!Array.isArray(content)) return [];
  return content.filter(
    (block): block is Record<string, unknown> => typeof block === "object" && block !== null,
  );
}
