// Runs every benchmark, each in its own Node process, and prints one table (median, spread, goal,
// met) with the machine's details. Benchmarks report; a missed goal never fails the run (a crashed
// benchmark does, exit 1).
//   npm run bench [-- --only fan-out,startup] [--runs n] [--out results.json]
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { machine, sampleLoad } from "./support/machine.ts";
import type { Row } from "./support/row.ts";
import { summarize } from "./support/stats.ts";
import { formatNumber, formatTable } from "./support/table.ts";

/** In table order; scale needs the background subagents runtime. */
const FIGURES = [
  "fan-out",
  "fan-out-wide",
  "overhead",
  "scale",
  "context-kept",
  "economy",
  "instructions",
  "tracing",
  "startup",
  "task-store",
  "sandbox",
  "workflow",
  "remote",
  "queue",
  "worker-kill",
  "ui",
  "serve-memory",
];

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { only: { type: "string" }, runs: { type: "string" }, out: { type: "string" } },
});
const only = values.only?.split(",").map((name) => name.trim());
const unknown = only?.filter((name) => !FIGURES.includes(name)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown figure ${unknown.join(", ")}; known: ${FIGURES.join(", ")}\n`);
  process.exit(2);
}

const host = machine();
process.stderr.write(
  `agentry benchmarks — ${host.date}\nNode ${host.node}, ${host.platform}, ${host.cpus} CPUs (${host.cpuModel}), ${host.memoryGiB} GiB\n`,
);
const stopLoad = sampleLoad();
const rows: Row[] = [];
const failures: string[] = [];
const started = performance.now();
for (const figure of FIGURES.filter((name) => !only || only.includes(name))) {
  process.stderr.write(`running ${figure}…\n`);
  const args = [fileURLToPath(new URL(`./${figure}.ts`, import.meta.url)), "--json"];
  if (values.runs !== undefined) args.push("--runs", values.runs);
  const result = await runFigure(args);
  if (result.ok) rows.push(...result.rows);
  else failures.push(`${figure}: ${result.error}`);
}
const load = stopLoad();
const loadStats = summarize(load);
const minutes = (performance.now() - started) / 60_000;

process.stdout.write(`\n${formatTable(rows)}\n\n`);
process.stdout.write(
  `Machine: ${host.cpus} CPUs (${host.cpuModel}), ${host.memoryGiB} GiB, Node ${host.node}, ${host.platform}; ${host.date}; ` +
    `${minutes.toFixed(1)} min; load average (1 min) during the run: median ${formatNumber(loadStats.median)}, ` +
    `${formatNumber(loadStats.min)}–${formatNumber(loadStats.max)}.\n`,
);
for (const failure of failures) process.stdout.write(`\nFAILED ${failure}\n`);
if (values.out !== undefined)
  await writeFile(
    values.out,
    `${JSON.stringify({ machine: host, load, minutes, rows, failures }, null, 2)}\n`,
  );
process.exit(failures.length > 0 ? 1 : 0);

async function runFigure(args: string[]): Promise<{ ok: true; rows: Row[] } | { ok: false; error: string }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    process.stderr.write(chunk);
  });
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  if (code !== 0)
    return { ok: false, error: `exited with ${code}: ${stderr.trim().split("\n").slice(-5).join("\n")}` };
  try {
    return { ok: true, rows: JSON.parse(stdout.trim().split("\n").at(-1) ?? "[]") as Row[] };
  } catch (error) {
    return { ok: false, error: `printed no JSON rows: ${String(error)}` };
  }
}
