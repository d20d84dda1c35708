// The test model server in its own process, scripted by a module (so the script may be a function):
//   node bench/support/server-main.ts <script-module-url> '<json args>'
// The module exports `createScript(args) → { step, summary(requests) }`. Prints the server URL as its
// first stdout line; on SIGTERM prints `summary(requests)` as one JSON line and exits. A separate
// process keeps the server's own CPU (JSON parsing, SSE encoding) off the harness's event loop, as
// a real model API would be.
import { startModelServer } from "../../test/support/model-server.ts";
import type { ServerScript } from "./server-script.ts";

const [moduleUrl, argsJson] = process.argv.slice(2);
if (moduleUrl === undefined) {
  process.stderr.write("usage: server-main.ts <script-module-url> [json-args]\n");
  process.exit(2);
}
const module = (await import(moduleUrl)) as { createScript: (args: unknown) => ServerScript };
const script = module.createScript(JSON.parse(argsJson ?? "{}"));
const server = await startModelServer(script.step, script.options ?? {});
process.stdout.write(`${server.url}\n`);
process.once("SIGTERM", () => {
  const summary = script.summary(server.requests, server);
  void server.close().then(() => {
    process.stdout.write(`${JSON.stringify(summary)}\n`, () => process.exit(0));
  });
});
// An orphaned server must not outlive the benchmark that started it.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 500).unref();
