import { openMcpServers } from "../../mcp/mcp-servers.ts";
import type { McpServerConfig } from "../../mcp/server-config.ts";
import { loadConfigFiles } from "../config/load-config.ts";
import { resolveSettings } from "../config/resolve-settings.ts";
import { EXIT_CODES } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { loadMcpConfigFlags } from "../mcp-config-flag.ts";
import { formatTable } from "../render/table.ts";
import { expandServers } from "../wire-mcp.ts";
import { resolveWorkspace } from "../workspace.ts";

export interface McpListOptions {
  cwd?: string;
  json?: boolean;
  mcpConfig?: string[];
}

interface ServerReport {
  name: string;
  type: "stdio" | "http";
  /** The command line or the URL. */
  target: string;
  status: "connected" | "failed";
  tools: string[];
  /** Its prompts, as chat commands (`/mcp__<server>__<prompt>`). */
  prompts: string[];
  resources: boolean;
  error?: string;
}

/** `agentry mcp list`: starts every configured server once, reports its tools, and stops it. */
export async function mcpListCommand(options: McpListOptions, io: CliIo): Promise<number> {
  const workspace = await resolveWorkspace(options.cwd, io.cwd);
  const settings = resolveSettings(await loadConfigFiles({ workspace, env: io.env }), {}, io.env);
  const servers = {
    ...settings.mcpServers,
    ...(await loadMcpConfigFlags(options.mcpConfig ?? [], workspace)),
  };
  const names = Object.keys(servers);
  if (names.length === 0) {
    if (options.json) io.stdout.write("[]\n");
    else io.stdout.write('No MCP servers are configured (see "agentry mcp --help").\n');
    return EXIT_CODES.completed;
  }
  const expanded = expandServers(servers, io.env);
  // Declared as a run declares it, so servers list the same tools; nothing is sampled while listing.
  const refuse = () => Promise.reject(new Error("agentry mcp list does not sample"));
  const set = await openMcpServers(expanded, {
    cwd: workspace,
    env: io.env,
    features: {
      sampling: {
        model: () => {
          throw new Error("agentry mcp list does not sample");
        },
        approve: refuse,
      },
    },
  });
  try {
    const reports = names.map((name): ServerReport => {
      const config = expanded[name] as McpServerConfig;
      const connected = set.servers.find((server) => server.name === name);
      const failure = set.failures.find((entry) => entry.server === name);
      return {
        name,
        type: config.type === "http" ? "http" : "stdio",
        target: config.type === "http" ? config.url : [config.command, ...(config.args ?? [])].join(" "),
        status: connected ? "connected" : "failed",
        tools: connected?.tools ?? [],
        prompts: (connected?.prompts ?? []).map((prompt) => `/${prompt.command}`),
        resources: connected?.resources ?? false,
        ...(failure ? { error: failure.message } : {}),
      };
    });
    if (options.json) io.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
    else io.stdout.write(render(reports));
    return reports.every((report) => report.status === "connected") ? EXIT_CODES.completed : EXIT_CODES.error;
  } finally {
    await set.close();
  }
}

function render(reports: readonly ServerReport[]): string {
  const table = formatTable(
    ["SERVER", "TYPE", "STATUS", "TOOLS", "COMMAND / URL"],
    reports.map((r) => [r.name, r.type, r.status, String(r.tools.length), r.target]),
  );
  const details = reports.map((r) => {
    if (r.status !== "connected") return `${r.name}: ${r.error ?? "failed"}`;
    const lines = [`${r.name}: ${r.tools.length === 0 ? "(no tools)" : r.tools.join(", ")}`];
    if (r.prompts.length > 0) lines.push(`  prompts: ${r.prompts.join(", ")}`);
    if (r.resources) lines.push(`  resources: list_mcp_resources, read_mcp_resource, @${r.name}:<uri>`);
    return lines.join("\n");
  });
  return `${table}\n${details.join("\n")}\n`;
}
