import type { Protocol } from "./model-server.ts";

/**
 * A provider's limits, for tests of how agentry lives with them: requests in flight at once and/or a
 * request-rate window. A request beyond either is answered 429 with `retry-after`, before any script
 * step is spent on it.
 */
export interface CapacityFault {
  /** Requests answered at once; one more is refused. */
  maxInFlight?: number;
  /** `requests` per `windowMs`, refilled steadily (a token bucket, as the real APIs count). */
  rate?: { requests: number; windowMs: number };
  /** `retry-after` of a refusal for `maxInFlight`, in whole seconds as the header allows (default 1). */
  retryAfterSeconds?: number;
  /**
   * Send the rate window's headers on every answer, as the providers do: Anthropic's
   * `anthropic-ratelimit-requests-{limit,remaining,reset}`, OpenAI's `x-ratelimit-*-requests`.
   */
  headers?: boolean;
}

/** What the fault did, for the test to check. */
export interface CapacityStats {
  /** `performance.now()` of every refusal. */
  refusals: number[];
  /** The most requests answered at once. */
  peakInFlight: number;
}

export type Admission =
  | { admitted: true; headers: Record<string, string>; done: () => void }
  | { admitted: false; headers: Record<string, string>; message: string };

/** Decides, request by request, whether the server takes it. */
export class CapacityGate {
  readonly stats: CapacityStats = { refusals: [], peakInFlight: 0 };
  private readonly fault: CapacityFault;
  private inFlight = 0;
  private level: number;
  private levelAt = performance.now();

  constructor(fault: CapacityFault) {
    this.fault = fault;
    this.level = fault.rate?.requests ?? 0;
  }

  admit(protocol: Protocol): Admission {
    const now = performance.now();
    const rate = this.fault.rate;
    if (rate) {
      this.level = Math.min(
        rate.requests,
        this.level + ((now - this.levelAt) * rate.requests) / rate.windowMs,
      );
      this.levelAt = now;
    }
    const max = this.fault.maxInFlight;
    if (max !== undefined && this.inFlight >= max) {
      return this.refuse(
        protocol,
        `model-server: over capacity (${this.inFlight} requests in flight, ${max} allowed)`,
        this.fault.retryAfterSeconds ?? 1,
      );
    }
    if (rate && this.level < 1) {
      const waitMs = ((1 - this.level) * rate.windowMs) / rate.requests;
      return this.refuse(
        protocol,
        `model-server: rate limited (${rate.requests} requests per ${rate.windowMs} ms)`,
        Math.max(1, Math.ceil(waitMs / 1000)),
      );
    }
    if (rate) this.level -= 1;
    this.inFlight++;
    this.stats.peakInFlight = Math.max(this.stats.peakInFlight, this.inFlight);
    let done = false;
    return {
      admitted: true,
      headers: this.windowHeaders(protocol),
      done: () => {
        if (done) return;
        done = true;
        this.inFlight--;
      },
    };
  }

  private refuse(protocol: Protocol, message: string, retryAfterSeconds: number): Admission {
    this.stats.refusals.push(performance.now());
    return {
      admitted: false,
      message,
      headers: { "retry-after": String(retryAfterSeconds), ...this.windowHeaders(protocol) },
    };
  }

  /** The request window as the protocol's headers say it: what is left, and when it is full again. */
  private windowHeaders(protocol: Protocol): Record<string, string> {
    const rate = this.fault.rate;
    if (!rate || this.fault.headers !== true) return {};
    const remaining = Math.max(0, Math.floor(this.level));
    const fullInMs = Math.ceil(((rate.requests - this.level) * rate.windowMs) / rate.requests);
    if (protocol === "anthropic") {
      return {
        "anthropic-ratelimit-requests-limit": String(rate.requests),
        "anthropic-ratelimit-requests-remaining": String(remaining),
        "anthropic-ratelimit-requests-reset": new Date(Date.now() + fullInMs).toISOString(),
      };
    }
    return {
      "x-ratelimit-limit-requests": String(rate.requests),
      "x-ratelimit-remaining-requests": String(remaining),
      "x-ratelimit-reset-requests": `${fullInMs}ms`,
    };
  }
}
