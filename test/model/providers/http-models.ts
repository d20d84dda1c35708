import type { AssistantMessage } from "../../../src/model/messages.ts";
import type { Model, ModelEvent, ModelStream } from "../../../src/model/model.ts";
import { createModel, type ModelSettings } from "../../../src/model/registry.ts";
import type { ModelServer } from "../../support/model-server.ts";

/** `openai` is the Responses API (what `openai:` speaks); `openai-chat` is `openai:` with `api: "chat"`. */
export type Protocol = "anthropic" | "openai" | "openai-chat";
export const PROTOCOLS: Protocol[] = ["anthropic", "openai", "openai-chat"];

/** Model ids with known prices, so cost can be checked. */
export const MODEL_IDS = {
  anthropic: "anthropic:claude-sonnet-4-5",
  openai: "openai:gpt-5",
  "openai-chat": "openai:gpt-5",
} as const;

/** A real adapter (through the registry, with its retry policy) pointed at the test server. */
export function modelFor(
  protocol: Protocol,
  server: ModelServer,
  retry: ModelSettings["retry"] = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 50 },
): Model {
  const settings: ModelSettings = {
    anthropic: { apiKey: "test-anthropic-key", baseUrl: server.anthropicBaseUrl },
    openai: {
      apiKey: "test-openai-key",
      baseUrl: server.openaiBaseUrl,
      api: protocol === "openai-chat" ? "chat" : "responses",
    },
    retry,
  };
  return createModel(MODEL_IDS[protocol], settings, {});
}

export async function collect(
  stream: ModelStream,
): Promise<{ events: ModelEvent[]; message: AssistantMessage }> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`stream ended without done: ${JSON.stringify(events)}`);
  return { events, message: last.message };
}

export function deltas(events: ModelEvent[], type: "text_delta" | "reasoning_delta"): string[] {
  return events.flatMap((event) => (event.type === type ? [event.delta] : []));
}
