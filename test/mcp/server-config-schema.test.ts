import { describe, expect, it } from "vitest";
import { mcpServerConfigSchema, mcpServersSchema } from "../../src/mcp/server-config.ts";

/** `path: message` of every issue, the way a config loader would print them. */
function problems(
  schema: {
    safeParse(value: unknown): { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
  },
  value: unknown,
): string[] {
  return (schema.safeParse(value).error?.issues ?? []).map(
    (issue) => `${issue.path.map(String).join(".")}: ${issue.message}`,
  );
}

describe("mcpServerConfigSchema", () => {
  it("accepts a stdio server with or without type, and an http server", () => {
    const stdio = { command: "npx", args: ["-y", "server"], env: { A: "1" }, cwd: "tools" };
    expect(mcpServerConfigSchema.parse(stdio)).toEqual(stdio);
    expect(mcpServerConfigSchema.parse({ type: "stdio", command: "srv" })).toEqual({
      type: "stdio",
      command: "srv",
    });
    const http = { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer x" } };
    expect(mcpServerConfigSchema.parse(http)).toEqual(http);
  });

  it("says that SSE is deprecated and to use http", () => {
    expect(problems(mcpServerConfigSchema, { type: "sse", url: "https://x.dev/sse" })).toEqual([
      'type: type "sse" (HTTP+SSE) is deprecated and not supported: use type "http" (Streamable HTTP), usually with the same url',
    ]);
  });

  it("names unknown keys and the keys each kind takes", () => {
    expect(problems(mcpServerConfigSchema, { command: "srv", timeout: 5, enabled: true })).toEqual([
      ': unknown keys "timeout", "enabled" (a stdio server takes type, command, args, env, cwd)',
    ]);
    expect(problems(mcpServerConfigSchema, { type: "http", url: "https://x.dev", command: "srv" })).toEqual([
      ': unknown key "command" (an http server takes type, url, headers)',
    ]);
  });

  it("tells a url without type http to add it", () => {
    expect(problems(mcpServerConfigSchema, { command: "srv", url: "https://x.dev/mcp" })).toEqual([
      ': unknown key "url" (for a server at a URL, add "type": "http")',
    ]);
    expect(problems(mcpServerConfigSchema, { url: "https://x.dev/mcp" })).toEqual([
      "command: command is required: the program that starts the server (or type: http with a url)",
      ': unknown key "url" (for a server at a URL, add "type": "http")',
    ]);
  });

  it("explains every other mistake", () => {
    expect(problems(mcpServerConfigSchema, "npx server")).toEqual([
      ': must be an object: { "command": …, "args": [ … ] } or { "type": "http", "url": … }',
    ]);
    expect(problems(mcpServerConfigSchema, { type: "websocket", url: "ws://x" })).toEqual([
      'type: unknown type "websocket": use "stdio" (a command) or "http" (a url)',
    ]);
    expect(problems(mcpServerConfigSchema, { command: "" })).toEqual(["command: command must not be empty"]);
    expect(problems(mcpServerConfigSchema, { command: "srv", args: "-y" })).toEqual([
      "args: args must be a list of strings",
    ]);
    expect(problems(mcpServerConfigSchema, { command: "srv", args: ["-p", 8080] })).toEqual([
      "args.1: every args entry must be a string",
    ]);
    expect(problems(mcpServerConfigSchema, { command: "srv", env: { PORT: 8080 } })).toEqual([
      "env.PORT: every env value must be a string",
    ]);
    expect(problems(mcpServerConfigSchema, { command: "srv", cwd: "" })).toEqual([
      "cwd: cwd must not be empty",
    ]);
    expect(problems(mcpServerConfigSchema, { command: ["npx", "srv"] })).toEqual([
      "command: command must be a string (put its arguments in args)",
    ]);
    expect(problems(mcpServerConfigSchema, { type: "http" })).toEqual([
      "url: url is required for an http server",
    ]);
    expect(problems(mcpServerConfigSchema, { type: "http", url: "" })).toEqual([
      "url: url must not be empty",
    ]);
    expect(problems(mcpServerConfigSchema, { type: "http", url: "https://x.dev", headers: ["a"] })).toEqual([
      "headers: headers must be an object of strings",
    ]);
  });
});

describe("mcpServersSchema", () => {
  it("parses server name → config", () => {
    const servers = {
      github: { type: "http", url: "https://api.example.com/mcp" },
      "fs_2-x": { command: "fs" },
    };
    expect(mcpServersSchema.parse(servers)).toEqual(servers);
  });

  it("refuses names that cannot be part of a tool name, and reports every server's problems", () => {
    expect(
      Object.keys(
        mcpServersSchema.safeParse({ a__b: { command: "x" }, _a: { command: "x" } }).error?.issues ?? {},
      ),
    ).toHaveLength(2);
    expect(problems(mcpServersSchema, { "my server": { command: "srv" }, "a.b": { command: 1 } })).toEqual([
      'my server: server name "my server" may contain only letters and digits, single "_" or "-" between them (it becomes part of tool names: mcp__<server>__<tool>)',
      'a.b: server name "a.b" may contain only letters and digits, single "_" or "-" between them (it becomes part of tool names: mcp__<server>__<tool>)',
      "a.b.command: command must be a string (put its arguments in args)",
    ]);
    expect(problems(mcpServersSchema, [])).toEqual([
      ": mcpServers must be an object of server name → configuration",
    ]);
  });
});
