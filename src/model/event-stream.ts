import type { AssistantMessage } from "./messages.ts";
import type { Model, ModelEvent, ModelRequest, ModelStream } from "./model.ts";

/**
 * A push-based `ModelStream`: producers `push()` events and finish with `end(message)`.
 * Consumers may iterate once and/or await `result()`. Events pushed before iteration starts are buffered.
 */
export class PushModelStream implements ModelStream {
  private readonly queue: ModelEvent[] = [];
  private waiting: ((event: IteratorResult<ModelEvent>) => void) | undefined;
  private finished = false;
  private finalMessage: AssistantMessage | undefined;
  private readonly resultPromise: Promise<AssistantMessage>;
  private resolveResult!: (message: AssistantMessage) => void;

  constructor() {
    this.resultPromise = new Promise((resolve) => {
      this.resolveResult = resolve;
    });
  }

  push(event: ModelEvent): void {
    if (this.finished) return;
    if (this.waiting) {
      const deliver = this.waiting;
      this.waiting = undefined;
      deliver({ value: event, done: false });
    } else {
      this.queue.push(event);
    }
  }

  /** Pushes the final `done` event and settles `result()`. Later calls are ignored. */
  end(message: AssistantMessage): void {
    if (this.finished) return;
    this.push({ type: "done", message });
    this.finished = true;
    this.finalMessage = message;
    this.resolveResult(message);
  }

  result(): Promise<AssistantMessage> {
    return this.resultPromise;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ModelEvent> {
    while (true) {
      const next = this.queue.shift();
      if (next) {
        yield next;
        if (next.type === "done") return;
        continue;
      }
      if (this.finished && this.finalMessage) return;
      const event = await new Promise<IteratorResult<ModelEvent>>((resolve) => {
        this.waiting = resolve;
      });
      if (event.done) return;
      yield event.value;
      if (event.value.type === "done") return;
    }
  }
}

/**
 * A model whose every call is a stream that `fill` feeds in the background: the shape of the provider
 * adapters and of each wrapper around a model (retries, the limiter, a deferred load). `fill` ends the
 * stream whatever happens, so a call never hangs.
 */
export function pushModel<Out extends PushModelStream>(
  id: string,
  open: () => Out,
  fill: (request: ModelRequest, signal: AbortSignal | undefined, out: Out) => Promise<void>,
): Model {
  return {
    id,
    stream(request: ModelRequest, signal?: AbortSignal): ModelStream {
      const out = open();
      void fill(request, signal, out);
      return out;
    },
  };
}
