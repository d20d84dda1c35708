// Runs the test model server in its own process, for tests that spawn the `agentry` CLI:
//   node test/support/model-server-cli.ts <script.json> [--record <requests.json>]
// Prints the server URL as the first stdout line; exits on SIGTERM/SIGINT or when its parent dies.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { type RecordedRequest, startModelServer } from "./model-server.ts";
import { serverReplySchema } from "./server-reply.ts";

const scriptSchema = z.union([z.array(serverReplySchema), serverReplySchema]);

function fail(message: string): never {
  process.stderr.write(`model-server-cli: ${message}\n`);
  process.exit(2);
}

let args: ReturnType<typeof parseCommandLine>;
try {
  args = parseCommandLine();
} catch (error) {
  fail(
    `${error instanceof Error ? error.message : String(error)}\nusage: model-server-cli <script.json> [--record <path>]`,
  );
}

let text: string;
try {
  text = readFileSync(args.scriptPath, "utf8");
} catch (error) {
  fail(`cannot read script ${args.scriptPath}: ${error instanceof Error ? error.message : String(error)}`);
}
let json: unknown;
try {
  json = JSON.parse(text);
} catch (error) {
  fail(
    `script ${args.scriptPath} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
  );
}
const parsed = scriptSchema.safeParse(json);
if (!parsed.success) fail(`invalid script ${args.scriptPath}: ${z.prettifyError(parsed.error)}`);

const { recordPath } = args;
const requests: RecordedRequest[] = [];
const record = (request: RecordedRequest) => {
  if (!requests.includes(request)) requests.push(request);
  if (recordPath === undefined) return;
  // Write then rename, so a reader never sees a half-written file.
  writeFileSync(`${recordPath}.tmp`, JSON.stringify(requests, null, 2));
  renameSync(`${recordPath}.tmp`, recordPath);
};
if (recordPath !== undefined) writeFileSync(recordPath, "[]");

const server = await startModelServer(parsed.data, { onRecord: record });
process.stdout.write(`${server.url}\n`);

const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
// An orphaned server would keep its port and the test run alive forever.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop();
}, 500).unref();

function parseCommandLine(): { scriptPath: string; recordPath: string | undefined } {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    options: { record: { type: "string" } },
    allowPositionals: true,
  });
  const [scriptPath, ...extra] = positionals;
  if (scriptPath === undefined) throw new Error("missing the script file argument");
  if (extra.length > 0) throw new Error(`unexpected arguments: ${extra.join(" ")}`);
  return { scriptPath, recordPath: values.record };
}
