// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` in plain strings is the syntax under test.
import { describe, expect, it } from "vitest";
import { expandServerConfig, McpConfigError } from "../../src/mcp/server-config.ts";

const env = { HOME: "/home/ada", TOKEN: "t0k", EMPTY: "", PORT: "8080" };

describe("expandServerConfig", () => {
  it("expands ${VAR} and ${VAR:-default} in command, args, env values and cwd", () => {
    const config = {
      command: "${HOME}/bin/server",
      args: ["--port", "${PORT}", "--mode=${MODE:-fast}", "${EMPTY:-unused}"],
      env: { API_TOKEN: "${TOKEN}", KEEP: "plain", "${NOT_A_KEY}": "x" },
      cwd: "${HOME}/work",
    };
    expect(expandServerConfig("srv", config, env)).toEqual({
      command: "/home/ada/bin/server",
      args: ["--port", "8080", "--mode=fast", ""],
      env: { API_TOKEN: "t0k", KEEP: "plain", "${NOT_A_KEY}": "x" },
      cwd: "/home/ada/work",
    });
  });

  it("expands url and header values of an http server", () => {
    const config = {
      type: "http" as const,
      url: "${BASE:-https://api.example.com}/mcp",
      headers: { Authorization: "Bearer ${TOKEN}" },
    };
    expect(expandServerConfig("api", config, env)).toEqual({
      type: "http",
      url: "https://api.example.com/mcp",
      headers: { Authorization: "Bearer t0k" },
    });
  });

  it("does not change a config without variables, nor its input", () => {
    const config = { type: "stdio" as const, command: "srv", args: ["$HOME", "{x}"] };
    expect(expandServerConfig("srv", config, {})).toEqual(config);
    const withVar = { command: "${HOME}/srv" };
    expandServerConfig("srv", withVar, env);
    expect(withVar.command).toBe("${HOME}/srv");
  });

  it("names the server and every missing variable, with where it is used", () => {
    const config = {
      type: "http" as const,
      url: "https://x.dev/${PATH_PART}",
      headers: { Authorization: "Bearer ${GITHUB_TOKEN}" },
    };
    expect(() => expandServerConfig("github", config, env)).toThrow(
      new McpConfigError(
        'MCP server "github": environment variables PATH_PART (in url), GITHUB_TOKEN (in headers.Authorization) are not set. Set them, or give a default: ${NAME:-default}.',
      ),
    );
    expect(() => expandServerConfig("db", { command: "db", args: ["${DB_URL}"] }, env)).toThrow(
      'MCP server "db": environment variable DB_URL (in args[0]) is not set. Set it, or give a default: ${NAME:-default}.',
    );
  });

  it("throws McpConfigError for a reference that is not a variable name", () => {
    const run = () => expandServerConfig("srv", { command: "srv", env: { X: "${1BAD}" } }, env);
    expect(run).toThrow(McpConfigError);
    expect(run).toThrow(
      'MCP server "srv": ${1BAD} in env.X is not a variable reference (write ${NAME} or ${NAME:-default}).',
    );
  });

  it("throws McpConfigError for an http url that is not an http(s) URL after expansion", () => {
    expect(() => expandServerConfig("api", { type: "http", url: "${HOST:-localhost}:3000/mcp" }, {})).toThrow(
      'MCP server "api": url "localhost:3000/mcp" is not an http:// or https:// URL.',
    );
    expect(() => expandServerConfig("api", { type: "http", url: "ftp://x.dev/mcp" }, {})).toThrow(
      McpConfigError,
    );
  });

  it("does not read variables from the object's prototype", () => {
    expect(() => expandServerConfig("srv", { command: "${toString}" }, {})).toThrow("toString (in command)");
  });
});
