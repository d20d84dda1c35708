import { z } from "zod";
import { AgentryError } from "../errors/agentry-error.ts";

/** How to reach one MCP server, as in Claude Code's `.mcp.json`: a local process (stdio) or a URL. */
export type McpServerConfig =
  | { type?: "stdio"; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { type: "http"; url: string; headers?: Record<string, string> };

export type McpStdioServerConfig = Extract<McpServerConfig, { command: string }>;
export type McpHttpServerConfig = Extract<McpServerConfig, { type: "http" }>;

/** A bad server configuration (a `${VAR}` that is not set, a URL that is not one); the message says which. */
export class McpConfigError extends AgentryError {
  override readonly name = "McpConfigError";
  readonly kind = "user";
}

/** A server name becomes part of tool names (`mcp__<server>__<tool>`), so it stays within this set. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/;

const stringMap = (what: string) =>
  z.record(z.string(), z.string({ error: `every ${what} value must be a string` }), {
    error: `${what} must be an object of strings`,
  });

const stdioSchema = z.strictObject({
  type: z.literal("stdio").optional(),
  command: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? "command is required: the program that starts the server (or type: http with a url)"
          : "command must be a string (put its arguments in args)",
    })
    .min(1, "command must not be empty"),
  args: z
    .array(z.string({ error: "every args entry must be a string" }), {
      error: "args must be a list of strings",
    })
    .optional(),
  env: stringMap("env").optional(),
  cwd: z.string({ error: "cwd must be a string" }).min(1, "cwd must not be empty").optional(),
});

const httpSchema = z.strictObject({
  type: z.literal("http"),
  url: z
    .string({
      error: (issue) =>
        issue.input === undefined ? "url is required for an http server" : "url must be a string",
    })
    .min(1, "url must not be empty"),
  headers: stringMap("headers").optional(),
});

const STDIO_KEYS = "type, command, args, env, cwd";
const HTTP_KEYS = "type, url, headers";

/**
 * One server's configuration, strict: unknown keys are named, `type: "sse"` says that SSE is deprecated,
 * and a stdio entry with a `url` says to add `type: "http"`.
 */
export const mcpServerConfigSchema: z.ZodType<McpServerConfig> = z.unknown().transform((value, ctx) => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    ctx.addIssue({
      code: "custom",
      message: 'must be an object: { "command": …, "args": [ … ] } or { "type": "http", "url": … }',
    });
    return z.NEVER;
  }
  const type = (value as { type?: unknown }).type;
  if (type === "sse") {
    ctx.addIssue({
      code: "custom",
      path: ["type"],
      message:
        'type "sse" (HTTP+SSE) is deprecated and not supported: use type "http" (Streamable HTTP), usually with the same url',
    });
    return z.NEVER;
  }
  if (type !== undefined && type !== "stdio" && type !== "http") {
    ctx.addIssue({
      code: "custom",
      path: ["type"],
      message: `unknown type ${JSON.stringify(type)}: use "stdio" (a command) or "http" (a url)`,
    });
    return z.NEVER;
  }
  const http = type === "http";
  const parsed = (http ? httpSchema : stdioSchema).safeParse(value);
  // zod leaves absent optional keys out, which is what `exactOptionalPropertyTypes` wants.
  if (parsed.success) return parsed.data as McpServerConfig;
  for (const issue of parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      const keys = issue.keys.map((key) => JSON.stringify(key)).join(", ");
      const hint =
        !http && issue.keys.includes("url")
          ? ' (for a server at a URL, add "type": "http")'
          : ` (${http ? "an http" : "a stdio"} server takes ${http ? HTTP_KEYS : STDIO_KEYS})`;
      ctx.addIssue({
        code: "custom",
        path: issue.path,
        message: `unknown key${issue.keys.length === 1 ? "" : "s"} ${keys}${hint}`,
      });
    } else {
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    }
  }
  return z.NEVER;
});

/** Server name → configuration (the `mcpServers` object of `.mcp.json` and agentry's config). */
export const mcpServersSchema: z.ZodType<Record<string, McpServerConfig>, unknown> = z
  .record(z.string(), z.unknown(), { error: "mcpServers must be an object of server name → configuration" })
  .transform((servers, ctx) => {
    const result: Record<string, McpServerConfig> = {};
    for (const [name, config] of Object.entries(servers)) {
      if (!MCP_SERVER_NAME.test(name)) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: `server name ${JSON.stringify(name)} may contain only letters and digits, single "_" or "-" between them (it becomes part of tool names: mcp__<server>__<tool>)`,
        });
      }
      const parsed = mcpServerConfigSchema.safeParse(config);
      if (parsed.success) result[name] = parsed.data;
      else
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: "custom", path: [name, ...issue.path], message: issue.message });
    }
    return result;
  });

const VARIABLE = /\$\{([^}:]*)(?::-([^}]*))?\}/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `${VAR}` and `${VAR:-default}` in command, args, env values, cwd, url and header values, from `env`
 * (as Claude Code's `.mcp.json`). A variable that is set to "" counts as set. A missing variable without
 * default throws `McpConfigError` naming the server and every missing variable; so does an http `url`
 * that is not an http(s) URL after expansion.
 */
export function expandServerConfig(
  name: string,
  config: McpServerConfig,
  env: Record<string, string | undefined>,
): McpServerConfig {
  const missing: string[] = [];
  const expand = (text: string, where: string): string =>
    text.replace(VARIABLE, (whole, variable: string, fallback: string | undefined) => {
      if (!VARIABLE_NAME.test(variable)) {
        throw new McpConfigError(
          `MCP server "${name}": ${whole} in ${where} is not a variable reference (write \${NAME} or \${NAME:-default}).`,
        );
      }
      const value = Object.hasOwn(env, variable) ? env[variable] : undefined;
      if (value !== undefined) return value;
      if (fallback !== undefined) return fallback;
      missing.push(`${variable} (in ${where})`);
      return whole;
    });
  const expandMap = (map: Record<string, string>, what: string) =>
    Object.fromEntries(Object.entries(map).map(([key, value]) => [key, expand(value, `${what}.${key}`)]));

  let expanded: McpServerConfig;
  if (config.type === "http") {
    expanded = { type: "http", url: expand(config.url, "url") };
    if (config.headers !== undefined) expanded.headers = expandMap(config.headers, "headers");
  } else {
    expanded = { command: expand(config.command, "command") };
    if (config.type !== undefined) expanded.type = config.type;
    if (config.args !== undefined) expanded.args = config.args.map((arg, i) => expand(arg, `args[${i}]`));
    if (config.env !== undefined) expanded.env = expandMap(config.env, "env");
    if (config.cwd !== undefined) expanded.cwd = expand(config.cwd, "cwd");
  }
  if (missing.length > 0) {
    const plural = missing.length > 1;
    throw new McpConfigError(
      `MCP server "${name}": environment variable${plural ? "s" : ""} ${missing.join(", ")} ${plural ? "are" : "is"} not set. Set ${plural ? "them" : "it"}, or give a default: \${NAME:-default}.`,
    );
  }
  if (expanded.type === "http" && !isHttpUrl(expanded.url)) {
    throw new McpConfigError(
      `MCP server "${name}": url ${JSON.stringify(expanded.url)} is not an http:// or https:// URL.`,
    );
  }
  return expanded;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
