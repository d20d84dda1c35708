import type { ModelServer } from "../../support/model-server.ts";

export type Protocol = "anthropic" | "openai";

/** Env that points the CLI's default provider of `protocol` at the test model server. */
export function providerEnv(server: ModelServer, protocol: Protocol): Record<string, string> {
  return protocol === "anthropic"
    ? { ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: "test-key" }
    : { OPENAI_BASE_URL: server.openaiBaseUrl, OPENAI_API_KEY: "test-key" };
}

/** Fast retries, so fault tests take milliseconds instead of the production backoff. */
export const FAST_RETRY_CONFIG = JSON.stringify({
  providers: { retry: { baseDelayMs: 20, maxDelayMs: 3000 } },
});

/** Every request body the server got, as text, for "did the model see X" assertions. */
export function bodyText(server: ModelServer, index: number): string {
  return JSON.stringify(server.requests[index]?.body ?? null);
}
