import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { SpanAttributes, SpanHandle, SpanOptions, SpanSink } from "./span-sink.ts";
import type { TraceParent } from "./trace-context.ts";

export interface OtlpOptions {
  /** The OTLP/HTTP traces endpoint (`…/v1/traces`). */
  url: string;
  headers?: Record<string, string>;
  serviceName: string;
  serviceVersion: string;
}

const KINDS = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT, server: SpanKind.SERVER } as const;

/**
 * Spans through the official OpenTelemetry SDK, exported over OTLP/HTTP in batches. Loaded only when
 * tracing is on: the SDK's modules cost start-up time and memory a run without tracing never pays.
 */
export function otlpSink(options: OtlpOptions): SpanSink {
  const exporter = new OTLPTraceExporter({ url: options.url, headers: options.headers ?? {} });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      "service.name": options.serviceName,
      "service.version": options.serviceVersion,
    }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 500 })],
  });
  const tracer = provider.getTracer("agentry", options.serviceVersion);
  return {
    start: (name, spanOptions) => startSpan(tracer, name, spanOptions ?? {}),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

function startSpan(tracer: Tracer, name: string, options: SpanOptions): SpanHandle {
  const span = tracer.startSpan(
    name,
    {
      kind: KINDS[options.kind ?? "internal"],
      attributes: defined(options.attributes ?? {}),
      ...(options.startTime === undefined ? {} : { startTime: options.startTime }),
    },
    parentContext(options.parent),
  );
  const own = span.spanContext();
  return Object.assign(
    {
      context: { traceId: own.traceId, spanId: own.spanId, flags: own.traceFlags },
      setAttributes: (attributes: SpanAttributes) => span.setAttributes(defined(attributes)),
      addEvent: (event: string, attributes?: SpanAttributes) =>
        span.addEvent(event, defined(attributes ?? {})),
      end: (status?: { error?: string }) => {
        if (status?.error !== undefined)
          span.setStatus({ code: SpanStatusCode.ERROR, message: status.error });
        span.end();
      },
    },
    { [SPAN]: span },
  );
}

const SPAN = Symbol("otel span");

function parentContext(parent: SpanHandle | TraceParent | undefined): Context {
  if (parent === undefined) return ROOT_CONTEXT;
  const own = (parent as { [SPAN]?: Span })[SPAN];
  if (own !== undefined) return trace.setSpan(ROOT_CONTEXT, own);
  const remote = "traceId" in parent ? parent : parent.context;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: remote.traceId,
    spanId: remote.spanId,
    traceFlags: remote.flags,
    isRemote: true,
  });
}

/** OpenTelemetry refuses `undefined` attribute values; a missing value is simply not set. */
function defined(attributes: SpanAttributes): Record<string, string | number | boolean | string[]> {
  return Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== undefined)) as Record<
    string,
    string | number | boolean | string[]
  >;
}
