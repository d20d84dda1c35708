/** Where traces go, read from the standard OpenTelemetry variables and agentry's `telemetry` setting. */
export interface TracingSettings {
  /** The OTLP/HTTP traces endpoint. */
  url: string;
  headers: Record<string, string>;
  /** Record messages and tool arguments and results on spans (off unless asked). */
  content: boolean;
  serviceName: string;
  /** The caller's trace (`TRACEPARENT`), for a run started by a traced process. */
  traceparent?: string;
}

export interface TelemetryConfig {
  /** The OTLP/HTTP endpoint's base URL (`http://collector:4318`); tracing is on when one is set. */
  endpoint?: string;
  headers?: Record<string, string>;
  content?: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Tracing is off unless an endpoint is named: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (as is),
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (+ `/v1/traces`), or `telemetry.endpoint` in the user's config.
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` keep it off.
 */
export function tracingSettings(env: Env, config: TelemetryConfig = {}): TracingSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return undefined;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || config.endpoint?.trim();
  const url = traces || (base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined);
  if (url === undefined) return undefined;
  const headers = {
    ...config.headers,
    ...parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
    ...parseHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
  };
  const content =
    env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === "true" ||
    config.content === true;
  const traceparent = env.TRACEPARENT?.trim();
  return {
    url,
    headers,
    content,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || "agentry",
    ...(traceparent ? { traceparent } : {}),
  };
}

/** `key=value,key2=value2`, values URL-decoded, as the OpenTelemetry variables write headers. */
function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // Left as written.
    }
    if (key !== "") headers[key] = value;
  }
  return headers;
}
