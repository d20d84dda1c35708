import { errorMessage } from "../text/error-message.ts";
import { type CallFeedback, type FeedbackSource, feedbackOf } from "./capacity.ts";
import { failedMessage } from "./errors.ts";
import { PushModelStream, pushModel } from "./event-stream.ts";
import type { Model, ModelRequest, ModelStream } from "./model.ts";
import { relayStream } from "./relay-stream.ts";
import type { RetryAfterSource } from "./retry.ts";

/** Passes the inner call's `retry-after` and feedback on, as the adapter's own stream would. */
class DeferredStream extends PushModelStream implements RetryAfterSource, FeedbackSource {
  inner: ModelStream | undefined;

  retryAfterMs(): number | undefined {
    const inner = this.inner;
    if (inner !== undefined && "retryAfterMs" in inner && typeof inner.retryAfterMs === "function") {
      const value: unknown = inner.retryAfterMs();
      if (typeof value === "number") return value;
    }
    return undefined;
  }

  feedback(): CallFeedback | undefined {
    return this.inner === undefined ? undefined : feedbackOf(this.inner);
  }
}

/**
 * A model whose adapter is built by `load` — which imports its provider package — started at once and
 * awaited by the first call. Each provider package (the AI SDK's Anthropic, OpenAI, OpenAI-compatible
 * code) takes milliseconds to load, and a run needs only the ones its models use; importing it now,
 * without waiting, lets it load while the rest of start-up waits on files and processes.
 * A load that fails ends every call with that error (not retryable: the installation is broken).
 */
export function deferredModel(id: string, load: () => Promise<Model>): Model {
  const loading = load();
  // Seen by each call; this only keeps a failure nobody has asked for yet from being "unhandled".
  loading.catch(() => {});
  return pushModel(
    id,
    () => new DeferredStream(),
    (request, signal, out) => forward(id, loading, request, signal, out),
  );
}

async function forward(
  id: string,
  loading: Promise<Model>,
  request: ModelRequest,
  signal: AbortSignal | undefined,
  out: DeferredStream,
): Promise<void> {
  let model: Model;
  try {
    model = await loading;
  } catch (error) {
    const reason = errorMessage(error);
    out.end(
      failedMessage({
        model: id,
        stopReason: "error",
        errorMessage: `the adapter for ${id} could not be loaded: ${reason}. Reinstall agentry.`,
        retryable: false,
      }),
    );
    return;
  }
  if (signal?.aborted) {
    out.end(failedMessage({ model: id, stopReason: "aborted", errorMessage: "aborted" }));
    return;
  }
  const inner = model.stream(request, signal);
  out.inner = inner;
  out.end(await relayStream(inner, out, id));
}
