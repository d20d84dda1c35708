import { EventTracer } from "./event-tracer.ts";
import type { TraceParent } from "./trace-context.ts";
import type { TracingSettings } from "./tracing-settings.ts";

/**
 * One process's tracing: a tracer per run (a CLI run has one; `agentry serve` and a worker one per
 * task or job, each under the trace its caller sent), all sending through one exporter.
 */
export interface TracingSession {
  /**
   * A tracer for one run's events, its root under `parent` (a caller's `traceparent`) when given. Its
   * owner calls its `close()` when the run ends (spans still open end as failed).
   */
  tracer(parent?: TraceParent): EventTracer;
  /** Sends what is pending and stops; "late" when the endpoint did not answer within the bound. */
  close(): Promise<"sent" | "late" | "failed">;
}

const FLUSH_BOUND_MS = 5_000;

/** Loads the OpenTelemetry SDK (only now: a process without tracing never does) and opens a session. */
export async function openTracing(
  settings: TracingSettings,
  serviceVersion: string,
): Promise<TracingSession> {
  const { otlpSink } = await import("./otel-sink.ts");
  const sink = otlpSink({
    url: settings.url,
    headers: settings.headers,
    serviceName: settings.serviceName,
    serviceVersion,
  });
  return {
    tracer: (parent) => new EventTracer(sink, { content: settings.content, ...(parent ? { parent } : {}) }),
    async close() {
      // Bounded, so a collector that is down costs seconds at most.
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), FLUSH_BOUND_MS);
        timer.unref();
      });
      const sent = await Promise.race([
        sink.shutdown().then(
          () => "sent" as const,
          () => "failed" as const,
        ),
        bound,
      ]);
      clearTimeout(timer);
      return sent;
    },
  };
}
