import { expect, it } from "vitest";
import { PromptEstimator, requestChars, tokensOfChars } from "../../src/agent/limits/token-estimate.ts";
import { userText } from "../../src/model/messages.ts";
import type { ModelRequest } from "../../src/model/model.ts";

const request = (text: string): ModelRequest => ({ system: "sys", messages: [userText(text)], tools: [] });

it("counts about four characters a token, an image by its pixels rather than its base64", () => {
  expect(tokensOfChars(4_000)).toBe(1_000);
  const image: ModelRequest = {
    system: "",
    tools: [],
    messages: [
      { role: "user", content: [{ type: "image", data: "A".repeat(2_000_000), mediaType: "image/png" }] },
    ],
  };
  expect(tokensOfChars(requestChars(image))).toBeLessThan(2_000);
});

it("counts a tool result's images too, each by its provider's rule for its size", () => {
  const image = {
    type: "image" as const,
    data: "A".repeat(400_000),
    mediaType: "image/png",
    width: 1000,
    height: 1000,
  };
  const withImage = (images: (typeof image)[]): ModelRequest => ({
    system: "",
    tools: [],
    messages: [
      {
        role: "tool_result",
        content: [
          {
            type: "tool_result",
            toolCallId: "c",
            toolName: "read",
            content: "x.png",
            isError: false,
            images,
          },
        ],
      },
    ],
  });
  const extra = (modelId: string) =>
    tokensOfChars(requestChars(withImage([image]), modelId) - requestChars(withImage([]), modelId));
  // Anthropic: 1000×1000 / 750; OpenAI: 768×768 after scaling, 4 tiles.
  expect(extra("anthropic:claude-sonnet-4-5")).toBe(1334);
  expect(extra("openai:gpt-5")).toBe(765);
  expect(new PromptEstimator("openai:gpt-5").estimate(withImage([image, image])).tokens).toBeGreaterThan(
    1530,
  );
});

it("estimates an agent's first prompt from its characters, later ones from the provider's last count", () => {
  const estimator = new PromptEstimator();
  const first = estimator.estimate(request("x".repeat(4_000)));
  expect(first.tokens).toBe(tokensOfChars(first.chars));
  // The provider counted 3 characters a token for it: the next, twice as long, is scaled alike.
  estimator.calibrate(first.chars, {
    input: 200,
    output: 0,
    cacheRead: Math.ceil(first.chars / 3) - 200,
    cacheWrite: 0,
  });
  const second = estimator.estimate(request("x".repeat(8_000)));
  expect(second.tokens).toBeGreaterThan(Math.floor(second.chars / 3) - 5);
  expect(second.tokens).toBeLessThan(Math.ceil(second.chars / 3) + 5);
});
