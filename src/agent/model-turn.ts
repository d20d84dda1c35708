import { type AssistantMessage, emptyUsage } from "../model/messages.ts";
import type { Model, ModelEvent, ModelRequest } from "../model/model.ts";
import { errorMessage } from "../text/error-message.ts";
import { watchAbort } from "./abort.ts";
import type { EventBody } from "./emitter.ts";

/**
 * Streams one model response, forwarding deltas, retries and waits for capacity (and telling `onOutput`
 * how many characters of output each event carries, for the budgets' estimates), and returns the final
 * message. Never throws: a failure is a message with `stopReason: "error"`, an abort one with
 * `"aborted"` — returned as soon as the signal fires, without waiting for the provider to notice.
 */
export async function streamAssistantMessage(
  model: Model,
  request: ModelRequest,
  signal: AbortSignal,
  emit: (event: EventBody) => void,
  onOutput: (chars: number) => void = () => {},
): Promise<AssistantMessage> {
  const abort = watchAbort(signal);
  try {
    const stream = model.stream(request, signal);
    const iterator = stream[Symbol.asyncIterator]();
    while (true) {
      const next = await abort.race(iterator.next());
      if (next === "aborted") {
        void iterator.return?.()?.catch(() => {});
        return failed(model.id, "aborted", "aborted");
      }
      if (next.done) break;
      const chars = outputChars(next.value);
      if (chars > 0) onOutput(chars);
      const final = forward(next.value, emit);
      if (final) return final;
    }
    const final = await abort.race(stream.result());
    return final === "aborted" ? failed(model.id, "aborted", "aborted") : final;
  } catch (error) {
    // The contract says streams never throw; a broken adapter must still not take the loop down.
    if (signal.aborted) return failed(model.id, "aborted", "aborted");
    return failed(model.id, "error", errorMessage(error));
  } finally {
    abort.dispose();
  }
}

function forward(event: ModelEvent, emit: (event: EventBody) => void): AssistantMessage | undefined {
  switch (event.type) {
    case "text_delta":
    case "reasoning_delta":
      emit({ type: event.type, delta: event.delta });
      return undefined;
    case "retry":
      emit({ type: "retry", attempt: event.attempt, delayMs: event.delayMs, error: event.error });
      return undefined;
    case "capacity_wait":
    case "capacity_granted":
      emit(event);
      return undefined;
    case "done":
      return event.message;
    default:
      // Tool-call deltas are shown once complete (tool_start); usage arrives with the final message.
      return undefined;
  }
}

/** Characters of output an event carries (text, reasoning, tool-call names and arguments). */
function outputChars(event: ModelEvent): number {
  switch (event.type) {
    case "text_delta":
    case "reasoning_delta":
    case "tool_call_delta":
      return event.delta.length;
    case "tool_call_start":
      return event.name.length;
    default:
      return 0;
  }
}

function failed(model: string, stopReason: "error" | "aborted", errorMessage: string): AssistantMessage {
  return { role: "assistant", content: [], stopReason, usage: emptyUsage(), model, errorMessage };
}
