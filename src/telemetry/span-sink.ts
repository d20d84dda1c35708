import type { TraceParent } from "./trace-context.ts";

/** Attribute values OpenTelemetry takes. */
export type SpanAttributes = Record<string, string | number | boolean | string[] | undefined>;

export interface SpanOptions {
  kind?: "internal" | "client" | "server";
  attributes?: SpanAttributes;
  /** The span's parent: another span of this process, or a remote one (`traceparent`). None: a new trace. */
  parent?: SpanHandle | TraceParent | undefined;
  /** Milliseconds since the epoch; default now. */
  startTime?: number;
}

/** A started span. */
export interface SpanHandle {
  /** This span as a parent for another process. */
  readonly context: TraceParent;
  setAttributes(attributes: SpanAttributes): void;
  addEvent(name: string, attributes?: SpanAttributes): void;
  end(status?: { error?: string }): void;
}

/**
 * Where spans go: the OpenTelemetry SDK (`otel-sink.ts`, loaded only when tracing is on) or a test's
 * memory. The tracer of agent events (`event-tracer.ts`) speaks only this, so no layer above imports
 * an OpenTelemetry type.
 */
export interface SpanSink {
  start(name: string, options?: SpanOptions): SpanHandle;
  /** Sends what is pending; bounded by the sink. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}
