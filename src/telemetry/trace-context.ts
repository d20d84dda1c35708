/**
 * A W3C trace context (`traceparent`): the trace a span belongs to and the span itself. It is how a
 * child's spans join its parent's trace across processes (a queue job, an A2A request).
 */
export interface TraceParent {
  traceId: string;
  spanId: string;
  /** Bit 0: sampled. */
  flags: number;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** `00-<trace-id>-<span-id>-<flags>`, or undefined for anything else (all-zero ids included). */
export function parseTraceParent(text: string | undefined): TraceParent | undefined {
  const match = TRACEPARENT.exec(text?.trim().toLowerCase() ?? "");
  if (match === null) return undefined;
  const [, traceId = "", spanId = "", flags = "00"] = match;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, flags: Number.parseInt(flags, 16) };
}

export function formatTraceParent(parent: TraceParent): string {
  return `00-${parent.traceId}-${parent.spanId}-${parent.flags.toString(16).padStart(2, "0")}`;
}
