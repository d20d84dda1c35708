import { emptyUsage, type Message } from "../../../src/model/messages.ts";
import type { ModelRequest } from "../../../src/model/model.ts";

/** A transcript with every part kind: text, image, reasoning with signature, two tool calls, ok and error results. */
export const richRequest: ModelRequest = {
  system: "You are a coding agent.",
  tools: [
    {
      name: "read",
      description: "Read a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    },
    {
      name: "bash",
      description: "Run a command",
      inputSchema: { type: "object", properties: { command: { type: "string" } } },
    },
  ],
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "What is in this screenshot?" },
        { type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "I should look at the files.", signature: "c2lnbmF0dXJl" },
        { type: "text", text: "Let me check." },
        { type: "tool_call", id: "call_1", name: "read", args: { path: "a.ts" }, rawArgs: '{"path":"a.ts"}' },
        {
          type: "tool_call",
          id: "call_2",
          name: "bash",
          args: { command: "ls" },
          rawArgs: '{"command":"ls"}',
        },
      ],
      stopReason: "tool_calls",
      usage: emptyUsage(),
      model: "anthropic:claude-sonnet-4-5",
    },
    {
      role: "tool_result",
      content: [
        {
          type: "tool_result",
          toolCallId: "call_1",
          toolName: "read",
          content: "export const a = 1;",
          isError: false,
        },
        {
          type: "tool_result",
          toolCallId: "call_2",
          toolName: "bash",
          content: "ls: permission denied",
          isError: true,
        },
      ],
    },
    { role: "user", content: [{ type: "text", text: "And now?" }] },
  ] satisfies Message[],
  maxOutputTokens: 1000,
  temperature: 0.2,
};
