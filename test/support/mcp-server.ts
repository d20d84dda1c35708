import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

export const TEST_SERVER_INSTRUCTIONS = "Test server: echo repeats text, add sums two numbers.";

export interface TestMcpServerOptions {
  /** Folder `write_note` and `read_note` work in (default: the process's cwd). */
  cwd?: string;
  /** Called after each tool call has produced its result (the main uses it for `--exit-after-first-call`). */
  onCallDone?: (tool: string) => void;
  /** More tools, registered last, that return their own name (for tool-name tests). */
  extraTools?: string[];
  /**
   * Also `add_tool` and `remove_tool` ({ name }): register or drop a tool that returns its name, so
   * the server sends `notifications/tools/list_changed` (for list-change tests).
   */
  mutableTools?: boolean;
  /** Also `steps` ({ count }): reports progress 1/count … count/count, then answers, with no wait between. */
  stepsTool?: boolean;
}

/**
 * A real MCP server for tests (one per connection), built with the SDK's `McpServer` and zod input
 * schemas: `echo`, `add` (structured result only), `fail` (isError), `slow` (reports progress, honours cancellation),
 * `write_note` / `read_note` (a file in its cwd; read-only hint on the reader), `get_env` (the server
 * process's environment), `shout.loud` (a name with a character agentry replaces).
 */
export function createTestMcpServer(options: TestMcpServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: "agentry-test-server", version: "1.0.0" },
    { instructions: TEST_SERVER_INSTRUCTIONS },
  );
  const cwd = () => options.cwd ?? process.cwd();
  const done = <T>(tool: string, result: T): T => {
    options.onCallDone?.(tool);
    return result;
  };

  server.registerTool(
    "echo",
    {
      description: "Returns the text it was given.",
      inputSchema: z.object({ text: z.string().describe("What to echo back.") }),
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => done("echo", { content: [{ type: "text", text: `echo: ${text}` }] }),
  );

  server.registerTool(
    "add",
    {
      title: "Add two numbers",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
      annotations: { readOnlyHint: true },
    },
    async ({ a, b }) => done("add", { content: [], structuredContent: { sum: a + b } }),
  );

  server.registerTool(
    "fail",
    { description: "Always reports a failure.", inputSchema: z.object({}) },
    async () =>
      done("fail", { content: [{ type: "text", text: "the fail tool always fails" }], isError: true }),
  );

  server.registerTool(
    "slow",
    {
      description: "Waits `ms` milliseconds, reporting progress; stops when the call is cancelled.",
      inputSchema: z.object({ ms: z.number().int().min(0) }),
    },
    async ({ ms }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      if (progressToken !== undefined) {
        const params = { progressToken, progress: 1, total: 2, message: "halfway" };
        await ctx.mcpReq.notify({ method: "notifications/progress", params });
      }
      await sleep(ms, undefined, { signal: ctx.mcpReq.signal });
      return done("slow", { content: [{ type: "text", text: `slept ${ms} ms` }] });
    },
  );

  server.registerTool(
    "write_note",
    {
      description: "Writes a note file in the server's working directory.",
      inputSchema: z.object({ path: z.string(), text: z.string() }),
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    async ({ path, text }) => {
      await writeFile(resolve(cwd(), path), text);
      return done("write_note", { content: [{ type: "text", text: `wrote ${path}` }] });
    },
  );

  server.registerTool(
    "read_note",
    {
      description: "Reads a note file from the server's working directory.",
      inputSchema: z.object({ path: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ path }) => {
      const text = await readFile(resolve(cwd(), path), "utf8");
      return done("read_note", { content: [{ type: "text", text }] });
    },
  );

  server.registerTool(
    "get_env",
    {
      description: "Returns an environment variable of the server process.",
      inputSchema: z.object({ name: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ name }) =>
      done("get_env", { content: [{ type: "text", text: process.env[name] ?? "(unset)" }] }),
  );

  server.registerTool(
    "shout.loud",
    { description: "Upper-cases its text.", inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => done("shout.loud", { content: [{ type: "text", text: text.toUpperCase() }] }),
  );

  if (options.mutableTools) {
    const added = new Map<string, { remove(): void }>();
    server.registerTool(
      "add_tool",
      { description: "Adds a tool that returns its name.", inputSchema: z.object({ name: z.string() }) },
      async ({ name }) => {
        added.set(
          name,
          server.registerTool(
            name,
            { description: `Returns "${name}".`, inputSchema: z.object({}) },
            async () => done(name, { content: [{ type: "text", text: `I am ${name}` }] }),
          ),
        );
        return done("add_tool", { content: [{ type: "text", text: `added ${name}` }] });
      },
    );
    server.registerTool(
      "remove_tool",
      { description: "Removes a tool add_tool added.", inputSchema: z.object({ name: z.string() }) },
      async ({ name }) => {
        added.get(name)?.remove();
        added.delete(name);
        return done("remove_tool", { content: [{ type: "text", text: `removed ${name}` }] });
      },
    );
  }

  if (options.stepsTool) {
    server.registerTool(
      "steps",
      {
        description: "Reports each step's progress, then answers.",
        inputSchema: z.object({ count: z.number() }),
      },
      async ({ count }, ctx) => {
        const progressToken = ctx.mcpReq._meta?.progressToken;
        for (let step = 1; step <= count && progressToken !== undefined; step++) {
          const params = { progressToken, progress: step, total: count };
          await ctx.mcpReq.notify({ method: "notifications/progress", params });
        }
        return done("steps", { content: [{ type: "text", text: `${count} steps done` }] });
      },
    );
  }

  for (const name of options.extraTools ?? []) {
    server.registerTool(name, { description: `Returns "${name}".`, inputSchema: z.object({}) }, async () =>
      done(name, { content: [{ type: "text", text: name }] }),
    );
  }

  return server;
}
