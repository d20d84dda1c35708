import type { AgentEvent } from "./events.ts";

/** Traces one run from its events (the telemetry layer's `EventTracer` is one). */
export interface RunTracer {
  event(event: AgentEvent): void;
  /** The run ended: spans still open end as failed. */
  close(): void;
}

/**
 * Starts tracing a run that a caller in another process asked for, under the caller's W3C
 * `traceparent` (absent or malformed: a trace of its own). The composition root gives one to
 * `agentry serve` and `agentry worker` when tracing is on; the layers that take it know nothing else
 * of tracing.
 */
export type TraceRun = (traceparent: string | undefined) => RunTracer;
