import type { SdkCall } from "./sdk-model.ts";

/**
 * The Responses API request settings agentry always sends:
 * - `store: false`: agentry keeps the transcript and resends it each turn, so nothing needs to live on
 *   OpenAI's side (and zero-data-retention organisations can use it). Reasoning then round-trips as
 *   encrypted content, which the SDK requests for reasoning models (`include`).
 * - `reasoningSummary: "auto"`: reasoning models stream a summary of their reasoning, which becomes
 *   our reasoning deltas. The SDK drops it (with a warning nobody reads) for models that do not reason.
 */
export function withResponsesOptions(call: SdkCall): SdkCall {
  return {
    ...call,
    providerOptions: {
      ...call.providerOptions,
      openai: { ...call.providerOptions?.openai, store: false, reasoningSummary: "auto" },
    },
  };
}
