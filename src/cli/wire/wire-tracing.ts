import type { AgentEvent } from "../../contracts/events.ts";
import type { EventTracer } from "../../telemetry/event-tracer.ts";
import { parseTraceParent } from "../../telemetry/trace-context.ts";
import { openTracing, type TracingSession } from "../../telemetry/tracing-session.ts";
import { type TelemetryConfig, tracingSettings } from "../../telemetry/tracing-settings.ts";
import { packageVersion } from "../package-version.ts";

/** A run's tracing: every event of its tree through `event`, then `close` when it ends. */
export interface RunTracing {
  tracer: EventTracer;
  event(event: AgentEvent): void;
  /** The trace context a child carries to where it runs (`EventTracer.traceparentFor`). */
  traceparentFor(childPath: readonly string[], description: string): string | undefined;
  /** Ends what is still open and sends what is pending (bounded, so a collector that is down costs seconds at most). */
  close(): Promise<void>;
}

/**
 * The process's tracing session when the OpenTelemetry variables or `telemetry` of the user's config
 * name an endpoint, else undefined — and then none of the SDK's modules is loaded. `agentry serve` and
 * `agentry worker` open one and take a tracer per task or job from it.
 */
export async function wireTracingSession(
  env: Readonly<Record<string, string | undefined>>,
  config: TelemetryConfig | undefined,
): Promise<TracingSession | undefined> {
  const settings = tracingSettings(env, config);
  return settings === undefined ? undefined : openTracing(settings, packageVersion());
}

/** Tracing of one run (`run`, `chat`, `workflow run`), under the caller's `TRACEPARENT` when set. */
export async function wireTracing(
  env: Readonly<Record<string, string | undefined>>,
  config: TelemetryConfig | undefined,
  onWarning: (message: string) => void,
): Promise<RunTracing | undefined> {
  const settings = tracingSettings(env, config);
  if (settings === undefined) return undefined;
  const session = await openTracing(settings, packageVersion());
  const tracer = session.tracer(parseTraceParent(settings.traceparent));
  return {
    tracer,
    event: (event) => tracer.event(event),
    traceparentFor: (childPath, description) => tracer.traceparentFor(childPath, description),
    async close() {
      tracer.close();
      const sent = await session.close();
      if (sent !== "sent")
        onWarning(
          `traces could not be sent to ${settings.url} (${sent === "late" ? "no answer" : "the export failed"})`,
        );
    },
  };
}
