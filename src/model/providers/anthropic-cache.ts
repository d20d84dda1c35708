import type { SharedV4ProviderOptions } from "@ai-sdk/provider";
import type { SdkCall } from "./sdk-model.ts";

/** How many of the newest user/tool-result messages get a breakpoint. */
const TRANSCRIPT_MARKS = 2;

/**
 * Marks Anthropic prompt-cache breakpoints (4 allowed per request): the tool definitions and the system
 * prompt (the stable prefix), and the two newest user/tool-result messages. The newest caches the growing
 * transcript; the one before is where the previous request put its mark, so that cache entry is hit
 * exactly even when the last turn added many blocks.
 */
export function withCacheBreakpoints(call: SdkCall): SdkCall {
  const tools = call.tools?.map((tool, index, all) =>
    index === all.length - 1 ? { ...tool, providerOptions: ephemeral(tool.providerOptions) } : tool,
  );
  const prompt = [...call.prompt];
  const mark = (index: number) => {
    const message = prompt[index];
    if (message) prompt[index] = { ...message, providerOptions: ephemeral(message.providerOptions) };
  };
  mark(prompt.findIndex((message) => message.role === "system"));
  let remaining = TRANSCRIPT_MARKS;
  for (let index = prompt.length - 1; index >= 0 && remaining > 0; index--) {
    const role = prompt[index]?.role;
    if (role === "user" || role === "tool") {
      mark(index);
      remaining--;
    }
  }
  return { ...call, prompt, tools };
}

function ephemeral(options: SharedV4ProviderOptions | undefined): SharedV4ProviderOptions {
  return { ...options, anthropic: { ...options?.anthropic, cacheControl: { type: "ephemeral" } } };
}
