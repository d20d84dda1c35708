import type { ModelPrice } from "../pricing.ts";

/** What every provider adapter takes besides where its endpoint is and how to authenticate. */
export interface AdapterOptions {
  /** The model name the provider expects, e.g. `claude-sonnet-5-5`, `gpt-5.5`, `qwen3`. */
  model: string;
  price?: ModelPrice | undefined;
  /** False for a model that reads no images (`takesImages`): they are sent as a line of text. Default true. */
  images?: boolean;
  fetch?: typeof globalThis.fetch;
}
