import { expect, test } from "vitest";
import { withResponsesOptions } from "../../../src/model/providers/openai-responses-options.ts";

test("asks for stateless requests and reasoning summaries, keeping the rest of the call", () => {
  const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }];
  expect(withResponsesOptions({ prompt, tools: undefined })).toEqual({
    prompt,
    tools: undefined,
    providerOptions: { openai: { store: false, reasoningSummary: "auto" } },
  });
});

test("keeps other providers' options and other OpenAI options", () => {
  const call = withResponsesOptions({
    prompt: [],
    tools: undefined,
    providerOptions: { openai: { user: "u1" }, other: { x: 1 } },
  });
  expect(call.providerOptions).toEqual({
    openai: { user: "u1", store: false, reasoningSummary: "auto" },
    other: { x: 1 },
  });
});
