/**
 * The test MCP server over stdio, for tests that spawn it:
 * `node test/support/mcp-server-main.ts [switches]`.
 *
 * --crash-on-start           print to stderr and exit with code 3 before answering anything
 * --hang-on-start            stay alive without ever reading stdin
 * --exit-after-first-call    exit (code 0) right after the first tool call's result was sent
 * --ignore-sigterm           keep running on SIGTERM (and after stdin closes): only SIGKILL ends it
 * --pid-file <path>          write this process's pid there first
 * --exit-file <path>         write "exited" there when it ends by itself (a signal's default action writes nothing)
 * --extra-tool <name>        also register a tool of that name (returns its name); may be repeated
 * --mutable-tools            also add_tool and remove_tool, which change the tool list (list_changed)
 * --burst                    also the steps tool, and all it writes in one turn of the event loop goes
 *                            out in one write: its reader gets it in one chunk, as on a loaded machine
 */
import { writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { createTestMcpServer } from "./mcp-server.ts";

const args = process.argv.slice(2);
const flagValue = (flag: string): string | undefined => {
  const index = args.indexOf(flag);
  return index === -1 ? undefined : args[index + 1];
};

const pidFile = flagValue("--pid-file");
if (pidFile !== undefined) writeFileSync(pidFile, String(process.pid));
const exitFile = flagValue("--exit-file");
if (exitFile !== undefined) process.on("exit", () => writeFileSync(exitFile, "exited"));

if (args.includes("--ignore-sigterm")) {
  process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\n"));
  setInterval(() => {}, 60_000);
}
if (args.includes("--crash-on-start")) {
  process.stderr.write("starting test server\nfatal: the database is locked\n");
  process.exit(3);
}
if (args.includes("--hang-on-start")) {
  process.stderr.write("warming up forever\n");
  setInterval(() => {}, 60_000);
} else {
  let exitAfterCall = args.includes("--exit-after-first-call");
  const extraTools = args.flatMap((arg, index) => (arg === "--extra-tool" ? [args[index + 1] ?? ""] : []));
  const server = createTestMcpServer({
    extraTools,
    mutableTools: args.includes("--mutable-tools"),
    stepsTool: args.includes("--burst"),
    onCallDone: () => {
      if (!exitAfterCall) return;
      exitAfterCall = false;
      // Let the response reach stdout first.
      setTimeout(() => {
        process.stderr.write("exiting after the first call\n");
        process.exit(0);
      }, 50);
    },
  });
  const stdout = args.includes("--burst") ? oneWritePerTurn() : process.stdout;
  await server.connect(new StdioServerTransport(process.stdin, stdout));
}

/** A stdout that holds what is written until the event loop turns, then writes it all at once. */
function oneWritePerTurn(): Writable {
  let held: Buffer[] = [];
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (held.length === 0) {
        setImmediate(() => {
          process.stdout.write(Buffer.concat(held));
          held = [];
        });
      }
      held.push(chunk);
      callback();
    },
  });
}
