// The providers' default endpoints, apart from their adapters so the registry can name them without
// loading a provider package (each adapter is imported only when a model of its provider is made).

/** The host without `/v1` (the meaning of `ANTHROPIC_BASE_URL`). */
export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";

/** Includes `/v1` (the meaning of `OPENAI_BASE_URL`). */
export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** Which OpenAI wire API a model speaks. */
export type OpenAIApi = "responses" | "chat";
