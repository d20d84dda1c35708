import { describe, expect, test } from "vitest";
import { failedMessage } from "../../src/model/errors.ts";
import { PushModelStream } from "../../src/model/event-stream.ts";
import { type AssistantMessage, emptyUsage, userText } from "../../src/model/messages.ts";
import type { Model, ModelEvent, ModelRequest } from "../../src/model/model.ts";
import { withRetry } from "../../src/model/retry.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";

const request: ModelRequest = { system: "", messages: [userText("hi")], tools: [] };
const fast = { baseDelayMs: 1, maxDelayMs: 50 };

async function collect(model: Model, signal?: AbortSignal): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of model.stream(request, signal)) events.push(event);
  return events;
}

const final = (events: ModelEvent[]): AssistantMessage => {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error("no done event");
  return last.message;
};

interface Attempt {
  events?: ModelEvent[];
  message: AssistantMessage;
  retryAfterMs?: number;
}

/** An inner model that plays one scripted attempt per call and can report a server's retry-after. */
function attempts(list: Attempt[]): Model & { calls: number } {
  const model = {
    id: "test:model",
    calls: 0,
    stream() {
      const attempt = list[model.calls++] ?? {
        message: failedMessage({
          model: "test:model",
          stopReason: "error",
          errorMessage: "no more attempts",
        }),
      };
      const stream = Object.assign(new PushModelStream(), { retryAfterMs: () => attempt.retryAfterMs });
      queueMicrotask(() => {
        for (const event of attempt.events ?? []) stream.push(event);
        stream.end(attempt.message);
      });
      return stream;
    },
  };
  return model;
}

const ok: AssistantMessage = {
  role: "assistant",
  content: [{ type: "text", text: "ok" }],
  stopReason: "stop",
  usage: emptyUsage(),
  model: "test:model",
};
const transient = (text = "HTTP 500") =>
  failedMessage({ model: "test:model", stopReason: "error", errorMessage: text, retryable: true });

describe("withRetry", () => {
  test("retries a retryable failure and announces each retry", async () => {
    const inner = scriptedModel([
      { error: { message: "HTTP 529 overloaded", retryable: true } },
      { text: "hello" },
    ]);
    const events = await collect(withRetry(inner, fast));
    expect(events.filter((event) => event.type === "retry")).toEqual([
      { type: "retry", attempt: 1, delayMs: expect.any(Number), error: "HTTP 529 overloaded" },
    ]);
    expect(final(events)).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "hello" }] });
    expect(inner.requests).toHaveLength(2);
  });

  test("does not retry a non-retryable failure", async () => {
    const inner = scriptedModel([{ error: { message: "HTTP 400", retryable: false } }, { text: "never" }]);
    const events = await collect(withRetry(inner, fast));
    expect(events.some((event) => event.type === "retry")).toBe(false);
    expect(final(events)).toMatchObject({ stopReason: "error", errorMessage: "HTTP 400", retryable: false });
    expect(inner.requests).toHaveLength(1);
  });

  test("gives up after maxRetries and says so, keeping the message retryable", async () => {
    const inner = attempts([{ message: transient() }, { message: transient() }, { message: transient() }]);
    const events = await collect(withRetry(inner, { ...fast, maxRetries: 2 }));
    expect(
      events
        .filter((event) => event.type === "retry")
        .map((event) => event.type === "retry" && event.attempt),
    ).toEqual([1, 2]);
    expect(final(events)).toMatchObject({
      stopReason: "error",
      retryable: true,
      errorMessage: "HTTP 500 (gave up after 2 retries)",
    });
    expect(inner.calls).toBe(3);
  });

  test("maxRetries 0 makes exactly one attempt", async () => {
    const inner = attempts([{ message: transient() }, { message: ok }]);
    const events = await collect(withRetry(inner, { maxRetries: 0 }));
    expect(final(events)).toMatchObject({ stopReason: "error", errorMessage: "HTTP 500" });
    expect(inner.calls).toBe(1);
  });

  test("never retries once events reached the consumer", async () => {
    const inner = attempts([
      { events: [{ type: "text_delta", delta: "half" }], message: transient("cut") },
      { message: ok },
    ]);
    const events = await collect(withRetry(inner, fast));
    expect(events.map((event) => event.type)).toEqual(["text_delta", "done"]);
    // …and says so, instead of leaving "retryable" to suggest a retry that never comes.
    expect(final(events)).toMatchObject({
      stopReason: "error",
      retryable: true,
      errorMessage:
        "the reply broke off after part of it had arrived, so it was not retried (a retry would repeat it): cut",
    });
    expect(inner.calls).toBe(1);
  });

  test("waits what the server's retry-after says, capped by maxDelayMs", async () => {
    const inner = attempts([
      { message: transient(), retryAfterMs: 120 },
      { message: transient(), retryAfterMs: 60_000 },
      { message: ok },
    ]);
    const started = performance.now();
    const events = await collect(withRetry(inner, { baseDelayMs: 1, maxDelayMs: 200 }));
    const delays = events.flatMap((event) => (event.type === "retry" ? [event.delayMs] : []));
    expect(delays).toEqual([120, 200]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect(final(events).stopReason).toBe("stop");
  });

  test("backs off exponentially with jitter when the server gives no hint", async () => {
    const inner = attempts([
      { message: transient() },
      { message: transient() },
      { message: transient() },
      { message: ok },
    ]);
    const events = await collect(withRetry(inner, { baseDelayMs: 10, maxDelayMs: 1000, random: () => 1 }));
    expect(events.flatMap((event) => (event.type === "retry" ? [event.delayMs] : []))).toEqual([10, 20, 40]);
  });

  test("an abort during the wait ends the stream as aborted without another attempt", async () => {
    const inner = attempts([{ message: transient(), retryAfterMs: 10_000 }, { message: ok }]);
    const controller = new AbortController();
    const model = withRetry(inner, { maxDelayMs: 10_000 });
    const stream = model.stream(request, controller.signal);
    const events: ModelEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === "retry") controller.abort();
    }
    expect(final(events)).toMatchObject({
      stopReason: "aborted",
      errorMessage: expect.stringContaining("waiting to retry"),
    });
    expect(inner.calls).toBe(1);
  });

  test("keeps the inner model's id and resolves result() to the final message", async () => {
    const model = withRetry(scriptedModel([{ text: "x" }], { id: "anthropic:claude" }), fast);
    expect(model.id).toBe("anthropic:claude");
    expect(await model.stream(request).result()).toMatchObject({ stopReason: "stop" });
  });
});
