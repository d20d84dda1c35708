import { parseArgs } from "node:util";
import type { Row } from "./row.ts";
import { formatTable } from "./table.ts";

/** What every bench module accepts on its command line (each module reads what it needs). */
export interface BenchArgs {
  /** Repetitions per metric (each module has its own default). */
  runs?: number;
}

/**
 * Runs `measure` when the module is the process's entry point (`node bench/x.ts [--runs n] [--json]`)
 * and prints its rows: a table, or JSON for `bench/run.ts`. Imported (by run.ts or a smoke test), it
 * does nothing.
 */
export async function benchMain(
  meta: ImportMeta,
  measure: (args: BenchArgs) => Promise<Row[]>,
): Promise<void> {
  if (!meta.main) return;
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { runs: { type: "string" }, json: { type: "boolean" } },
  });
  const args: BenchArgs = {};
  if (values.runs !== undefined) {
    const runs = Number(values.runs);
    if (!Number.isInteger(runs) || runs < 1)
      throw new Error(`--runs must be a whole number ≥ 1, got ${values.runs}`);
    args.runs = runs;
  }
  const rows = await measure(args);
  process.stdout.write(values.json ? `${JSON.stringify(rows)}\n` : `${formatTable(rows)}\n`);
  // Keep-alive sockets and unref'd timers of the code under test must not hold the result back.
  process.exit(0);
}
