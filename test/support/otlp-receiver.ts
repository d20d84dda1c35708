import { createServer, type Server } from "node:http";

/** One span as an OTLP/HTTP receiver got it, attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  service: string | undefined;
}

export interface OtlpReceiver {
  /** The OTLP/HTTP base URL (what `OTEL_EXPORTER_OTLP_ENDPOINT` means). */
  url: string;
  spans: ReceivedSpan[];
  /** Requests with their headers, for checks on what the exporter sends. */
  requests: Array<{ path: string; headers: Record<string, string | string[] | undefined> }>;
  close(): Promise<void>;
}

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};

/** A local OTLP/HTTP traces receiver speaking OTLP/JSON, as the SDK's HTTP exporter sends it. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver["requests"] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      requests.push({ path: request.url ?? "", headers: request.headers });
      if (request.method === "POST" && request.url === "/v1/traces") spans.push(...spansOf(body));
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function spansOf(body: string): ReceivedSpan[] {
  const data = JSON.parse(body) as {
    resourceSpans?: Array<{
      resource?: { attributes?: Array<{ key: string; value: AnyValue }> };
      scopeSpans?: Array<{
        spans?: Array<{
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          name: string;
          kind: number;
          attributes?: Array<{ key: string; value: AnyValue }>;
          status?: { code?: number; message?: string };
        }>;
      }>;
    }>;
  };
  return (data.resourceSpans ?? []).flatMap((resource) => {
    const service = resource.resource?.attributes?.find((attribute) => attribute.key === "service.name");
    return (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId === "" ? undefined : span.parentSpanId,
        name: span.name,
        kind: span.kind,
        attributes: Object.fromEntries(
          (span.attributes ?? []).map((attribute) => [attribute.key, plain(attribute.value)]),
        ),
        status: span.status ?? {},
        service: service === undefined ? undefined : String(plain(service.value)),
      })),
    );
  });
}

function plain(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}
