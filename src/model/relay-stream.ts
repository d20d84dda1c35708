import { errorMessage } from "../text/error-message.ts";
import { failedMessage } from "./errors.ts";
import type { PushModelStream } from "./event-stream.ts";
import type { AssistantMessage } from "./messages.ts";
import type { ModelStream } from "./model.ts";

/**
 * Pushes `inner`'s events into `out` up to its `done` and returns its final message, without ending
 * `out` (the wrapper decides what else happens first). The contract says streams never throw; one
 * that does ends as a failed message naming `modelId`, so a wrapper never hangs or keeps a slot.
 */
export async function relayStream(
  inner: ModelStream,
  out: PushModelStream,
  modelId: string,
): Promise<AssistantMessage> {
  try {
    for await (const event of inner) {
      if (event.type === "done") return event.message;
      out.push(event);
    }
    return await inner.result();
  } catch (error) {
    const text = errorMessage(error);
    return failedMessage({ model: modelId, stopReason: "error", errorMessage: text });
  }
}
