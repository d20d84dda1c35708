import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { AdaptiveLimiter } from "../../src/model/adaptive-limiter.ts";
import { type AssistantMessage, userText } from "../../src/model/messages.ts";
import type { Model, ModelEvent, ModelRequest } from "../../src/model/model.ts";
import { withRetry } from "../../src/model/retry.ts";
import { withLimiter } from "../../src/model/with-limiter.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { scaled } from "../support/time-scale.ts";

const request: ModelRequest = { system: "", messages: [userText("hi")], tools: [] };

async function collect(model: Model, signal?: AbortSignal): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of model.stream(request, signal)) events.push(event);
  return events;
}

const finalOf = (events: ModelEvent[]): AssistantMessage => {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error("no done event");
  return last.message;
};

/** A scripted model that counts the calls it is answering at once; each takes `ms`. */
function countingModel(ms: number, reply: (call: number) => ScriptedReply = () => ({ text: "ok" })) {
  const counts = { now: 0, peak: 0 };
  const model = scriptedModel(async (_request, call) => {
    counts.now++;
    counts.peak = Math.max(counts.peak, counts.now);
    await sleep(ms);
    counts.now--;
    return reply(call);
  });
  return { model, counts };
}

describe("a limited model", () => {
  test("never has more calls in flight than the limit; the others wait, announced, and all complete", async () => {
    const { model, counts } = countingModel(40);
    const limiter = new AdaptiveLimiter({ initial: 2, max: 2 });
    const limited = withLimiter(model, limiter);

    const runs = await Promise.all(Array.from({ length: 5 }, () => collect(limited)));
    expect(counts.peak).toBe(2);
    expect(runs.map((events) => finalOf(events).stopReason)).toEqual(Array(5).fill("stop"));
    const waited = runs.filter((events) => events[0]?.type === "capacity_wait");
    expect(waited).toHaveLength(3);
    for (const events of waited) {
      expect(events[0]).toMatchObject({ type: "capacity_wait", reason: "limit", limit: 2, inFlight: 2 });
      expect(events[1]).toMatchObject({ type: "capacity_granted", limit: 2 });
      expect(events.slice(2).map((event) => event.type)).toEqual(["text_delta", "usage", "done"]);
    }
    expect(limiter.state).toEqual({ limit: 2, inFlight: 0, waiting: 0 });
  });

  test("a call aborted while it waits ends aborted and is never sent", async () => {
    const { model } = countingModel(200);
    const limited = withLimiter(model, new AdaptiveLimiter({ initial: 1, max: 1 }));
    const first = collect(limited);
    const controller = new AbortController();
    const second = collect(limited, controller.signal);
    await sleep(20);
    controller.abort();
    const events = await second;
    expect(events.map((event) => event.type)).toEqual(["capacity_wait", "done"]);
    expect(finalOf(events)).toMatchObject({
      stopReason: "aborted",
      errorMessage: "aborted while waiting for model capacity",
    });
    await first;
    expect(model.requests).toHaveLength(1);
  });

  test("a refusal for capacity is retried after its retry-after, which holds back every other call too", async () => {
    // The first call is refused with retry-after 300 ms; the rest succeed.
    const { model } = countingModel(10, (call) =>
      call === 0
        ? { error: { message: "429 rate limited", retryable: true, throttled: true, retryAfterMs: 300 } }
        : { text: `answer ${call}` },
    );
    const limiter = new AdaptiveLimiter({ initial: 4, max: 4 });
    const retried = withRetry(withLimiter(model, limiter), { baseDelayMs: 1 });

    // Read the first call until its refusal is announced, then make another call.
    const firstStream = retried.stream(request);
    const firstEvents: ModelEvent[] = [];
    const iterator = firstStream[Symbol.asyncIterator]();
    while (firstEvents.at(-1)?.type !== "retry") {
      const next = await iterator.next();
      if (next.done) throw new Error("the first call ended without a retry");
      firstEvents.push(next.value);
    }
    const refusedAt = Date.now();
    // A call made meanwhile waits for the provider's retry-after, announced with its reason.
    const other = await collect(retried);
    const otherSentAt = Date.now();
    expect(other[0]).toMatchObject({ type: "capacity_wait", reason: "retry_after" });
    expect(finalOf(other).stopReason).toBe("stop");
    expect(otherSentAt - refusedAt).toBeGreaterThanOrEqual(250);

    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      firstEvents.push(next.value);
    expect(firstEvents.find((event) => event.type === "retry")).toMatchObject({ attempt: 1, delayMs: 300 });
    expect(finalOf(firstEvents)).toMatchObject({ stopReason: "stop" });
    // One refusal: the limit steps down by one.
    expect(limiter.state.limit).toBe(3);
  });

  test("an attempt that waited for capacity and was then refused is still retried", async () => {
    const { model } = countingModel(60, (call) =>
      call === 1
        ? { error: { message: "529 overloaded", retryable: true, throttled: true, retryAfterMs: 20 } }
        : { text: `answer ${call}` },
    );
    const retried = withRetry(withLimiter(model, new AdaptiveLimiter({ initial: 1, max: 1 })), {
      baseDelayMs: 1,
    });
    const first = collect(retried);
    const second = await collect(retried);
    const types = second.map((event) => event.type);
    expect(types.slice(0, 3)).toEqual(["capacity_wait", "capacity_granted", "retry"]);
    expect(finalOf(second)).toMatchObject({
      stopReason: "stop",
      content: [{ type: "text", text: "answer 2" }],
    });
    await first;
  });

  test("a reply whose rate-limit headers say the window is spent makes the next call wait for the refill", async () => {
    const { model } = countingModel(5, (call) =>
      call === 0
        ? { text: "first", rateLimits: { requests: { limit: 1, remaining: 0, resetMs: 300 } } }
        : { text: "second" },
    );
    const limited = withLimiter(model, new AdaptiveLimiter());
    await collect(limited);
    const started = Date.now();
    const events = await collect(limited);
    expect(events[0]).toMatchObject({ type: "capacity_wait", reason: "rate_limit" });
    expect(finalOf(events).stopReason).toBe("stop");
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  test("a long wait is announced again every heartbeat", async () => {
    // Five heartbeats long, or more on a loaded machine, where a beat may come late.
    const { model } = countingModel(scaled(250));
    const limited = withLimiter(model, new AdaptiveLimiter({ initial: 1, max: 1 }), { heartbeatMs: 50 });
    const first = collect(limited);
    const events = await collect(limited);
    const waits = events.filter((event) => event.type === "capacity_wait");
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(events.filter((event) => event.type === "capacity_granted")).toHaveLength(1);
    await first;
  });
});
