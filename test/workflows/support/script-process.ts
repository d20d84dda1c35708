// Runs workflow script bodies in the sandbox, in a process of its own, for the tests that need the
// process's environment (its time zone) to differ from the test runner's:
// node script-process.ts <json array of script bodies>
// Prints one JSON line: each body's result, or `{ "error": message }`.
import { runScript } from "../../../src/workflows/script-sandbox.ts";
import { scaled } from "../../support/time-scale.ts";

const bodies = JSON.parse(process.argv[2] ?? "[]") as string[];
const host = {
  args: null,
  agent: async () => JSON.stringify({ ok: false, error: "no agents here" }),
  phase: () => {},
  log: () => {},
  failure: () => {},
};
const results: unknown[] = [];
for (const body of bodies) {
  results.push(
    await runScript(body, host, {
      signal: AbortSignal.timeout(scaled(10_000)),
      filename: "local-time.js",
    }).catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) })),
  );
}
process.stdout.write(`${JSON.stringify(results)}\n`);
