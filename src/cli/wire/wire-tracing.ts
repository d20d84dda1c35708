import type { AgentEvent } from "../../contracts/events.ts";
import { EventTracer } from "../../telemetry/event-tracer.ts";
import { parseTraceParent } from "../../telemetry/trace-context.ts";
import { type TelemetryConfig, tracingSettings } from "../../telemetry/tracing-settings.ts";
import { packageVersion } from "../package-version.ts";

/** A run's tracing: every event of its tree through `event`, then `close` when it ends. */
export interface RunTracing {
  tracer: EventTracer;
  event(event: AgentEvent): void;
  /** Ends what is still open and sends what is pending (bounded, so a collector that is down costs seconds at most). */
  close(): Promise<void>;
}

const FLUSH_BOUND_MS = 5_000;

/**
 * Tracing of a run when the OpenTelemetry variables or `telemetry` of the user's config name an
 * endpoint, else undefined — and then none of the SDK's modules is loaded.
 */
export async function wireTracing(
  env: Readonly<Record<string, string | undefined>>,
  config: TelemetryConfig | undefined,
  onWarning: (message: string) => void,
): Promise<RunTracing | undefined> {
  const settings = tracingSettings(env, config);
  if (settings === undefined) return undefined;
  const { otlpSink } = await import("../../telemetry/otel-sink.ts");
  const sink = otlpSink({
    url: settings.url,
    headers: settings.headers,
    serviceName: settings.serviceName,
    serviceVersion: packageVersion(),
  });
  const parent = parseTraceParent(settings.traceparent);
  const tracer = new EventTracer(sink, { content: settings.content, ...(parent ? { parent } : {}) });
  return {
    tracer,
    event: (event) => tracer.event(event),
    async close() {
      tracer.close();
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
      if (sent !== "sent")
        onWarning(
          `traces could not be sent to ${settings.url} (${sent === "late" ? "no answer" : "the export failed"})`,
        );
    },
  };
}
