// Tracing's cost (issue 28). On: the fan-out figure's workload (16 children × 5 tool calls, 200 ms per
// model reply; bench/fan-out.ts) with every event of the tree turned into spans by the event tracer
// and exported by OpenTelemetry's SDK over OTLP/HTTP to a local receiver, against the same workload
// untraced, alternating; the wall time includes the final export. Off: a real `agentry run` from the
// checkout with no endpoint loads none of the SDK's modules (counted).
//   node bench/tracing.ts [--runs 5]
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EventTracer } from "../src/telemetry/event-tracer.ts";
import { otlpSink } from "../src/telemetry/otel-sink.ts";
import { startModelServer } from "../test/support/model-server.ts";
import { startOtlpReceiver } from "../test/support/otlp-receiver.ts";
import { fanOutOnce } from "./fan-out.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { type Row, row } from "./support/row.ts";
import { expectSuccess, runNode } from "./support/spawn-timed.ts";
import { tempDir } from "./support/temp-dir.ts";

const FIGURE = "tracing";
const GOAL_PERCENT = 5;
const CHILDREN = 16;
const CALLS = 5;
const LATENCY_MS = 200;
const BIN = fileURLToPath(new URL("../bin/agentry.js", import.meta.url));
const LOADED_MODULES = new URL("./support/loaded-modules.mjs", import.meta.url).href;

export async function measureTracing(options: BenchArgs = {}): Promise<Row[]> {
  const runs = options.runs ?? 5;
  const receiver = await startOtlpReceiver();
  try {
    await fanOutOnce(2, CALLS, LATENCY_MS);
    const off: number[] = [];
    const on: number[] = [];
    let spans = 0;
    for (let i = 0; i < runs; i++) {
      off.push((await fanOutOnce(CHILDREN, CALLS, LATENCY_MS)).wallMs);
      const before = receiver.spans.length;
      const sink = otlpSink({
        url: `${receiver.url}/v1/traces`,
        serviceName: "agentry-bench",
        serviceVersion: "0",
      });
      const tracer = new EventTracer(sink);
      const run = await fanOutOnce(CHILDREN, CALLS, LATENCY_MS, (event) => tracer.event(event));
      // The run's wall time as the untraced one counts it (not the set-up of its model server and
      // workspace), plus the final export it waits for.
      const exporting = performance.now();
      tracer.close();
      await sink.shutdown();
      on.push(run.wallMs + (performance.now() - exporting));
      spans = receiver.spans.length - before;
    }
    const ratio = on.map((wall, i) => wall / (off[i] ?? wall));
    const loaded = await sdkModulesOfARun();
    return [
      row(FIGURE, `fan-out N = ${CHILDREN}, untraced`, "ms", off, {
        note: `${CHILDREN} children × ${CALLS} tool calls, ${LATENCY_MS} ms per model reply (bench/fan-out.ts)`,
      }),
      row(FIGURE, `fan-out N = ${CHILDREN}, traced (spans exported)`, "ms", on, {
        note: `${spans} spans a run, exported over OTLP/HTTP to a local receiver; the final export is included`,
      }),
      row(FIGURE, "traced ÷ untraced wall time", "×", ratio, {
        goal: { max: 1 + GOAL_PERCENT / 100 },
        note: "each traced run against its untraced neighbour (the order alternates); on a loaded machine the spread of the runs themselves exceeds this",
      }),
      row(FIGURE, "SDK modules an untraced agentry run loads", "modules", [loaded.off], {
        goal: { max: 0 },
        note: `a real agentry run from the checkout, no OTEL_* variable; with an endpoint the same run loads ${loaded.on}`,
      }),
    ];
  } finally {
    await receiver.close();
  }
}

/** The OpenTelemetry modules a small `agentry run` resolves, without and with an endpoint. */
async function sdkModulesOfARun(): Promise<{ off: number; on: number }> {
  const { dir, remove } = await tempDir("tracing");
  const server = await startModelServer({ text: "ok" });
  const receiver = await startOtlpReceiver();
  try {
    const count = async (name: string, extra: Record<string, string>) => {
      const file = join(dir, `${name}.modules`);
      expectSuccess(
        await runNode(["--import", LOADED_MODULES, BIN, "run", "hi"], {
          cwd: dir,
          env: {
            PATH: process.env.PATH ?? "/usr/bin:/bin",
            HOME: join(dir, "home"),
            NO_COLOR: "1",
            ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
            ANTHROPIC_API_KEY: "bench-key",
            AGENTRY_BENCH_MODULES_FILE: file,
            ...extra,
          },
        }),
        "agentry run",
      );
      const text = await readFile(file, "utf8");
      return text.split("\n").filter((line) => line.includes("@opentelemetry")).length;
    };
    return {
      off: await count("off", {}),
      on: await count("on", { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
    };
  } finally {
    await receiver.close();
    await server.close();
    await remove();
  }
}

await benchMain(import.meta, measureTracing);
