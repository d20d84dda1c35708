import { describe, expect, test } from "vitest";
import { failedMessage } from "../../../src/model/errors.ts";
import { emptyUsage, type Message } from "../../../src/model/messages.ts";
import { toSdkPrompt } from "../../../src/model/providers/to-sdk-prompt.ts";

const usage = emptyUsage();

describe("toSdkPrompt", () => {
  test("puts the system prompt first and converts text and images", () => {
    const prompt = toSdkPrompt("be brief", [
      {
        role: "user",
        content: [
          { type: "text", text: "what is this?" },
          { type: "image", data: "aGk=", mediaType: "image/png" },
        ],
      },
    ]);
    expect(prompt).toEqual([
      { role: "system", content: "be brief" },
      {
        role: "user",
        content: [
          { type: "text", text: "what is this?" },
          { type: "file", mediaType: "image/png", data: { type: "data", data: "aGk=" } },
        ],
      },
    ]);
  });

  test("omits an empty system prompt", () => {
    expect(toSdkPrompt("", [{ role: "user", content: [{ type: "text", text: "hi" }] }])[0]?.role).toBe(
      "user",
    );
  });

  test("converts assistant text, reasoning and tool calls, and tool results", () => {
    const messages: Message[] = [
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "think", signature: "sig" },
          { type: "text", text: "reading" },
          { type: "tool_call", id: "c1", name: "read", args: { path: "a.ts" }, rawArgs: '{"path":"a.ts"}' },
        ],
        stopReason: "tool_calls",
        usage,
        model: "anthropic:x",
      },
      {
        role: "tool_result",
        content: [
          { type: "tool_result", toolCallId: "c1", toolName: "read", content: "file text", isError: false },
          { type: "tool_result", toolCallId: "c2", toolName: "bash", content: "exit 1", isError: true },
        ],
      },
    ];
    const prompt = toSdkPrompt("", messages, {
      reasoningOptions: (part) => ({ test: { signature: part.signature ?? "" } }),
    });
    expect(prompt).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "think", providerOptions: { test: { signature: "sig" } } },
          { type: "text", text: "reading" },
          { type: "tool-call", toolCallId: "c1", toolName: "read", input: { path: "a.ts" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "read",
            output: { type: "text", value: "file text" },
          },
          {
            type: "tool-result",
            toolCallId: "c2",
            toolName: "bash",
            output: { type: "error-text", value: "exit 1" },
          },
        ],
      },
    ]);
  });

  test("tool calls whose arguments did not parse are sent with an empty object", () => {
    const prompt = toSdkPrompt("", [
      {
        role: "assistant",
        content: [
          { type: "tool_call", id: "c1", name: "bash", args: undefined, rawArgs: '{"cmd": "ls' },
          { type: "tool_call", id: "c2", name: "bash", args: [1, 2], rawArgs: "[1,2]" },
        ],
        stopReason: "tool_calls",
        usage,
        model: "m",
      },
    ]);
    expect(prompt[0]?.content).toMatchObject([{ input: {} }, { input: {} }]);
  });

  test("drops assistant messages with nothing to send, and empty text parts", () => {
    const prompt = toSdkPrompt("", [
      { role: "user", content: [{ type: "text", text: "hi" }] },
      failedMessage({ model: "m", stopReason: "error", errorMessage: "HTTP 500" }),
      {
        role: "assistant",
        content: [
          { type: "text", text: "" },
          { type: "text", text: "ok" },
        ],
        stopReason: "stop",
        usage,
        model: "m",
      },
    ]);
    expect(prompt).toEqual([
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ]);
  });

  test("reasoning without provider options is sent bare", () => {
    const prompt = toSdkPrompt("", [
      {
        role: "assistant",
        content: [{ type: "reasoning", text: "t" }],
        stopReason: "stop",
        usage,
        model: "m",
      },
    ]);
    expect(prompt[0]?.content).toEqual([{ type: "reasoning", text: "t" }]);
  });
});
