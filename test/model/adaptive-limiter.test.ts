import { afterEach, describe, expect, test, vi } from "vitest";
import {
  AdaptiveLimiter,
  type CallResult,
  DEFAULT_LIMITER_OPTIONS,
  type Permit,
  resolveLimiterOptions,
} from "../../src/model/adaptive-limiter.ts";

const ok: CallResult = { kind: "ok" };
const refused = (retryAfterMs?: number): CallResult =>
  retryAfterMs === undefined ? { kind: "throttled" } : { kind: "throttled", retryAfterMs };

/** Takes `count` permits that must be free now. */
function take(limiter: AdaptiveLimiter, count: number): Permit[] {
  return Array.from({ length: count }, (_, i) => {
    const permit = limiter.tryAcquire();
    if (permit === undefined) throw new Error(`permit #${i + 1} of ${count} was not free`);
    return permit;
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the limit", () => {
  test("lets up to the limit go at once; the rest wait and go in arrival order", async () => {
    const limiter = new AdaptiveLimiter({ initial: 2, max: 2 });
    const [first, second] = take(limiter, 2);
    expect(limiter.tryAcquire()).toBeUndefined();
    const order: string[] = [];
    const waits: string[] = [];
    const third = limiter.acquire(undefined, (wait) => waits.push(`${wait.reason} ${wait.waiting}`));
    const fourth = limiter.acquire(undefined, (wait) => waits.push(`${wait.reason} ${wait.waiting}`));
    void third.then(() => order.push("third"));
    void fourth.then(() => order.push("fourth"));
    expect(waits).toEqual(["limit 1", "limit 2"]);
    expect(limiter.state).toEqual({ limit: 2, inFlight: 2, waiting: 2 });

    first?.release({ kind: "failed" });
    await third;
    expect(order).toEqual(["third"]);
    second?.release({ kind: "failed" });
    await fourth;
    expect(order).toEqual(["third", "fourth"]);
  });

  test("a wait that is aborted leaves the queue, and the next in line goes instead", async () => {
    const limiter = new AdaptiveLimiter({ initial: 1, max: 1 });
    const [held] = take(limiter, 1);
    const controller = new AbortController();
    const gone = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    controller.abort(new Error("cancelled"));
    await expect(gone).rejects.toThrow("cancelled");
    expect(limiter.state.waiting).toBe(1);
    held?.release({ kind: "aborted" });
    await expect(next).resolves.toBeDefined();
    expect(limiter.state).toMatchObject({ inFlight: 1, waiting: 0 });
  });

  test("a permit released twice counts once", () => {
    const limiter = new AdaptiveLimiter({ initial: 2, max: 2 });
    const [permit] = take(limiter, 2);
    permit?.release(ok);
    permit?.release(ok);
    expect(limiter.state.inFlight).toBe(1);
  });
});

describe("growth", () => {
  test("a call that took the last free slot and succeeded grows it by one; others teach nothing", () => {
    const limiter = new AdaptiveLimiter({ initial: 2, max: 16 });
    // One call at a time never meets the limit.
    for (let i = 0; i < 5; i++) take(limiter, 1)[0]?.release(ok);
    expect(limiter.state.limit).toBe(2);
    for (const permit of take(limiter, 2)) permit.release(ok);
    expect(limiter.state.limit).toBe(3);
  });

  test("while calls wait, every success grows it by one: it doubles per round (slow start)", async () => {
    const limiter = new AdaptiveLimiter({ initial: 2, max: 16 });
    const inFlight = new Set<Permit>(take(limiter, 2));
    // More demand than the limit ever allows, so the queue never runs dry.
    for (let i = 0; i < 40; i++) void limiter.acquire().then((permit) => inFlight.add(permit));
    const round = async () => {
      const current = [...inFlight];
      inFlight.clear();
      for (const permit of current) permit.release(ok);
      await Promise.resolve();
    };
    await round();
    expect(limiter.state).toMatchObject({ limit: 4, inFlight: 4 });
    await round();
    expect(limiter.state).toMatchObject({ limit: 8, inFlight: 8 });
    await round();
    expect(limiter.state).toEqual({ limit: 16, inFlight: 16, waiting: 12 });
  });

  test("never above max", () => {
    const limiter = new AdaptiveLimiter({ initial: 3, max: 4 });
    for (let round = 0; round < 5; round++) {
      for (const permit of take(limiter, limiter.state.limit)) permit.release(ok);
    }
    expect(limiter.state.limit).toBe(4);
  });

  test("above the limit the provider last refused, it grows by one per probeMs of full use", () => {
    vi.useFakeTimers();
    const limiter = new AdaptiveLimiter({ initial: 6, max: 32, probeMs: 1000 });
    const permits = take(limiter, 6);
    permits[0]?.release(refused());
    expect(limiter.state.limit).toBe(5);
    for (const permit of permits.slice(1)) permit.release(ok);
    // Full rounds right after the refusal: no growth.
    for (let i = 0; i < 3; i++) for (const permit of take(limiter, 5)) permit.release(ok);
    expect(limiter.state.limit).toBe(5);

    vi.advanceTimersByTime(1000);
    for (const permit of take(limiter, 5)) permit.release(ok);
    expect(limiter.state.limit).toBe(6);
  });

  test("a probe that is refused again makes the next wait twice as long; one that holds resets the pace", () => {
    vi.useFakeTimers();
    const limiter = new AdaptiveLimiter({ initial: 4, max: 32, probeMs: 1000 });
    const limit = () => limiter.state.limit;
    /** A round at the full limit; the newest call (the one that took the last slot) ends with `last`. */
    const round = (last: CallResult = ok) => {
      const permits = take(limiter, limit());
      permits.at(-1)?.release(last);
      for (const permit of permits.slice(0, -1)) permit.release(ok);
    };
    round(refused());
    expect(limit()).toBe(3);
    vi.advanceTimersByTime(1000);
    round();
    expect(limit()).toBe(4);
    // The probe to 4 is refused: back to 3, and now it takes 2 s of full use to try again.
    round(refused());
    expect(limit()).toBe(3);
    vi.advanceTimersByTime(1000);
    round();
    expect(limit()).toBe(3);
    vi.advanceTimersByTime(1000);
    round();
    expect(limit()).toBe(4);
    // That probe held: the next comes after the base 1 s again.
    vi.advanceTimersByTime(2000);
    round();
    expect(limit()).toBe(5);
    vi.advanceTimersByTime(1000);
    round();
    expect(limit()).toBe(6);
  });
});

describe("back-off", () => {
  test("shrinks by one per call refused for capacity, but at most by half per burst of refusals", () => {
    const limiter = new AdaptiveLimiter({ initial: 10, max: 10 });
    const permits = take(limiter, 10);
    for (const permit of permits.slice(0, 3)) permit.release(refused());
    expect(limiter.state.limit).toBe(7);
    // Seven more refusals of calls sent before the first: the same burst, so no lower than 5.
    for (const permit of permits.slice(3)) permit.release(refused());
    expect(limiter.state.limit).toBe(5);

    // Calls sent after the back-off that are refused too: a new burst, which may halve again (5 → 2).
    for (const permit of take(limiter, 5)) permit.release(refused());
    expect(limiter.state.limit).toBe(2);
  });

  test("a burst settles on what the provider took, once the calls in flight when it began have ended", () => {
    const limiter = new AdaptiveLimiter({ initial: 16, max: 32 });
    const permits = take(limiter, 16);
    // A provider that takes 5 at once: the 11 beyond are refused at once, the 5 succeed later.
    for (const permit of permits.slice(5)) permit.release(refused());
    expect(limiter.state.limit).toBe(8);
    for (const permit of permits.slice(0, 4)) permit.release(ok);
    expect(limiter.state.limit).toBe(8);
    permits[4]?.release(ok);
    expect(limiter.state.limit).toBe(5);
    // Five at once now go through, with no refusal.
    expect(take(limiter, 5)).toHaveLength(5);
    expect(limiter.tryAcquire()).toBeUndefined();
  });

  test("a lone refusal (an overloaded blip) takes one off, however many the provider took beside it", () => {
    const limiter = new AdaptiveLimiter({ initial: 8, max: 8 });
    const permits = take(limiter, 3);
    permits[0]?.release(refused());
    for (const permit of permits.slice(1)) permit.release(ok);
    expect(limiter.state.limit).toBe(7);
  });

  test("a burst in which nothing was taken (a spent window) halves it, no lower", () => {
    const limiter = new AdaptiveLimiter({ initial: 16, max: 16 });
    for (const permit of take(limiter, 16)) permit.release(refused());
    expect(limiter.state.limit).toBe(8);
  });

  test("never below min", () => {
    const limiter = new AdaptiveLimiter({ initial: 4, min: 3, max: 8 });
    for (let burst = 0; burst < 3; burst++) {
      for (const permit of take(limiter, limiter.state.limit)) permit.release(refused());
    }
    expect(limiter.state.limit).toBe(3);
  });

  test("other failures and aborts do not shrink it", () => {
    const limiter = new AdaptiveLimiter({ initial: 4, max: 4 });
    const permits = take(limiter, 4);
    permits[0]?.release({ kind: "failed" });
    permits[1]?.release({ kind: "aborted" });
    expect(limiter.state.limit).toBe(4);
  });
});

describe("retry-after", () => {
  test("a burst in which the provider took calls ends the pause once they have ended", () => {
    let now = 0;
    const limiter = new AdaptiveLimiter({ initial: 4, max: 4 }, () => now);
    const permits = take(limiter, 4);
    for (const permit of permits.slice(2)) permit.release(refused(1_000));
    expect(limiter.blocked()).toMatchObject({ reason: "retry_after" });
    now = 300;
    permits[0]?.release(ok);
    expect(limiter.blocked()).toMatchObject({ reason: "retry_after" });
    permits[1]?.release(ok);
    // The provider takes 2 at once: two may go now, the refused ones wait out their retry-after alone.
    expect(limiter.state.limit).toBe(2);
    expect(take(limiter, 2)).toHaveLength(2);
  });

  test("a burst in which the provider took nothing keeps the pause", () => {
    let now = 0;
    const limiter = new AdaptiveLimiter({ initial: 4, max: 4 }, () => now);
    const permits = take(limiter, 4);
    for (const permit of permits) permit.release(refused(1_000));
    now = 300;
    expect(limiter.blocked()).toMatchObject({ reason: "retry_after", resumeInMs: 700 });
  });

  test("holds every new call back until it has passed", async () => {
    vi.useFakeTimers();
    const limiter = new AdaptiveLimiter({ initial: 4, max: 4 });
    take(limiter, 1)[0]?.release(refused(2000));
    expect(limiter.tryAcquire()).toBeUndefined();
    expect(limiter.blocked()).toEqual({ reason: "retry_after", resumeInMs: 2000 });

    let granted = false;
    const reasons: string[] = [];
    void limiter
      .acquire(undefined, (wait) => reasons.push(`${wait.reason} ${wait.resumeInMs}`))
      .then(() => {
        granted = true;
      });
    expect(reasons).toEqual(["retry_after 2000"]);
    await vi.advanceTimersByTimeAsync(1999);
    expect(granted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toBe(true);
  });

  test("a retry-after longer than maxPauseMs holds calls back for maxPauseMs", () => {
    vi.useFakeTimers();
    const limiter = new AdaptiveLimiter({ maxPauseMs: 5000 });
    take(limiter, 1)[0]?.release(refused(3_600_000));
    expect(limiter.blocked()).toEqual({ reason: "retry_after", resumeInMs: 5000 });
  });
});

describe("rate-limit headers", () => {
  test("a spent request window holds calls back until it refills, before any 429", async () => {
    vi.useFakeTimers();
    const limiter = new AdaptiveLimiter({ initial: 8, max: 8 });
    // 10 requests per 8 s, 2 left: the window refills at one request per second.
    take(limiter, 1)[0]?.release({
      kind: "ok",
      rateLimits: { requests: { limit: 10, remaining: 2, resetMs: 8000 } },
    });
    take(limiter, 2);
    expect(limiter.tryAcquire()).toBeUndefined();
    const blocked = limiter.blocked();
    expect(blocked?.reason).toBe("rate_limit");
    expect(blocked?.resumeInMs).toBeCloseTo(1000, -1);

    let granted = false;
    void limiter.acquire().then(() => {
      granted = true;
    });
    await vi.advanceTimersByTimeAsync(900);
    expect(granted).toBe(false);
    await vi.advanceTimersByTimeAsync(110);
    expect(granted).toBe(true);
  });

  test("calls sent after the one whose headers arrive are taken off what the window has left", () => {
    vi.useFakeTimers();
    const limiter = new AdaptiveLimiter({ initial: 8, max: 8 });
    const [early, ...later] = take(limiter, 3);
    // The provider says 3 are left when it answered the first call; the two sent after it may not be counted.
    early?.release({ kind: "ok", rateLimits: { requests: { limit: 100, remaining: 3, resetMs: 60_000 } } });
    expect(later).toHaveLength(2);
    expect(limiter.tryAcquire()).toBeDefined();
    expect(limiter.tryAcquire()).toBeUndefined();
    expect(limiter.blocked()?.reason).toBe("rate_limit");
  });

  test("a token window counts calls at the tokens they used on average", () => {
    vi.useFakeTimers();
    const limiter = new AdaptiveLimiter({ initial: 8, max: 8 });
    take(limiter, 1)[0]?.release({
      kind: "ok",
      tokens: 300,
      rateLimits: { tokens: { limit: 10_000, remaining: 700, resetMs: 60_000 } },
    });
    // 700 tokens left at ~300 a call: two calls, not a third.
    take(limiter, 2);
    expect(limiter.blocked()?.reason).toBe("rate_limit");
  });

  test("a window that refills later than maxPauseMs (a daily quota) is left to the provider's 429", () => {
    const limiter = new AdaptiveLimiter({ initial: 8, max: 8, maxPauseMs: 60_000 });
    take(limiter, 1)[0]?.release({
      kind: "ok",
      rateLimits: { requests: { limit: 1000, remaining: 0, resetMs: 6 * 3_600_000 } },
    });
    expect(limiter.blocked()).toBeUndefined();
    expect(limiter.tryAcquire()).toBeDefined();
  });

  test("a window without a reset time is not waited for (there is no telling when it refills)", () => {
    const limiter = new AdaptiveLimiter({ initial: 8, max: 8 });
    take(limiter, 1)[0]?.release({ kind: "ok", rateLimits: { requests: { remaining: 0 } } });
    expect(limiter.tryAcquire()).toBeDefined();
  });
});

describe("options", () => {
  test("defaults: 16 at first, between 1 and 32", () => {
    expect(DEFAULT_LIMITER_OPTIONS).toMatchObject({ initial: 16, min: 1, max: 32 });
    expect(new AdaptiveLimiter().state.limit).toBe(16);
    // A ceiling below the default start starts at the ceiling.
    expect(new AdaptiveLimiter({ max: 4 }).state.limit).toBe(4);
    expect(new AdaptiveLimiter({ min: 20 }).state.limit).toBe(20);
  });

  test("bad values are refused, naming the key", () => {
    expect(() => resolveLimiterOptions({ max: 0 })).toThrow(
      "model concurrency max must be a whole number ≥ 1, got 0",
    );
    expect(() => resolveLimiterOptions({ min: 1.5 })).toThrow(/min must be a whole number/);
    expect(() => resolveLimiterOptions({ min: 8, max: 4 })).toThrow(
      "model concurrency min (8) must not exceed max (4)",
    );
    expect(() => resolveLimiterOptions({ probeMs: -1 })).toThrow(/probeMs/);
  });
});
