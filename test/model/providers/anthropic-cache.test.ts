import { expect, test } from "vitest";
import { withCacheBreakpoints } from "../../../src/model/providers/anthropic-cache.ts";
import type { SdkCall } from "../../../src/model/providers/sdk-model.ts";

const ephemeral = { anthropic: { cacheControl: { type: "ephemeral" } } };

test("marks the last tool, the system prompt and the two newest user/tool messages", () => {
  const call: SdkCall = {
    prompt: [
      { role: "system", content: "sys" },
      { role: "user", content: [{ type: "text", text: "one" }] },
      { role: "assistant", content: [{ type: "text", text: "two" }] },
      { role: "user", content: [{ type: "text", text: "three" }] },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c", toolName: "t", input: {} }] },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c", toolName: "t", output: { type: "text", value: "r" } },
        ],
      },
    ],
    tools: [
      { type: "function", name: "a", inputSchema: {} },
      { type: "function", name: "b", inputSchema: {} },
    ],
  };
  const marked = withCacheBreakpoints(call);
  expect(marked.prompt.map((message) => message.providerOptions)).toEqual([
    ephemeral,
    undefined,
    undefined,
    ephemeral,
    undefined,
    ephemeral,
  ]);
  expect(marked.tools?.map((tool) => tool.providerOptions)).toEqual([undefined, ephemeral]);
  // The input is not mutated.
  expect(call.prompt[0]?.providerOptions).toBeUndefined();
});

test("works without tools or system prompt and keeps other provider options", () => {
  const marked = withCacheBreakpoints({
    prompt: [
      {
        role: "user",
        content: [{ type: "text", text: "hi" }],
        providerOptions: { anthropic: { x: 1 }, other: { y: 2 } },
      },
    ],
    tools: undefined,
  });
  expect(marked.tools).toBeUndefined();
  expect(marked.prompt[0]?.providerOptions).toEqual({
    anthropic: { x: 1, cacheControl: { type: "ephemeral" } },
    other: { y: 2 },
  });
});
