import { openMcpServers } from "../../../mcp/mcp-servers.ts";
import type { McpServerConfig } from "../../../mcp/server-config.ts";
import { projectWarnings } from "../../config/project-report.ts";
import { readWorkspace } from "../../config/read-project.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import type { CliIo } from "../../io.ts";
import { loadMcpConfigFlags } from "../../mcp-config-flag.ts";
import { formatTable } from "../../render/table.ts";
import { expandServers } from "../../wire/wire-mcp.ts";

export interface McpListOptions {
  cwd?: string;
  json?: boolean;
  mcpConfig?: string[];
  /** `--trust-project`: the project's servers start for this listing too. */
  trustProject?: boolean;
}

interface ServerReport {
  name: string;
  /** The file it is configured in, or `--mcp-config`. */
  source: string;
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

/**
 * `agentry mcp list`: starts every server a run would start once, reports its tools, and stops it; the
 * servers of a project's files that wait for the folder's trust are listed, not started.
 */
export async function mcpListCommand(options: McpListOptions, io: CliIo): Promise<number> {
  const { workspace, project } = await readWorkspace(options, io);
  const servers = {
    ...project.settings.mcpServers,
    ...(await loadMcpConfigFlags(options.mcpConfig ?? [], workspace)),
  };
  const withheld = project.withheld
    .filter((item) => item.setting.startsWith("MCP server "))
    .map((item) => ({
      server: item.setting.slice("MCP server ".length).replace(/^"|"$/g, ""),
      source: item.source,
    }));
  for (const line of projectWarnings(project)) io.stderr.write(`${line}\n`);
  const names = Object.keys(servers);
  if (names.length === 0) {
    if (options.json)
      io.stdout.write(withheld.length > 0 ? `${JSON.stringify({ servers: [], withheld })}\n` : "[]\n");
    else if (withheld.length > 0) io.stdout.write(withheldLines(withheld));
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
        source: project.settings.mcpSources[name] ?? "--mcp-config",
        type: config.type === "http" ? "http" : "stdio",
        target: config.type === "http" ? config.url : [config.command, ...(config.args ?? [])].join(" "),
        status: connected ? "connected" : "failed",
        tools: connected?.tools ?? [],
        prompts: (connected?.prompts ?? []).map((prompt) => `/${prompt.command}`),
        resources: connected?.resources ?? false,
        ...(failure ? { error: failure.message } : {}),
      };
    });
    if (options.json)
      io.stdout.write(
        `${JSON.stringify(withheld.length > 0 ? { servers: reports, withheld } : reports, null, 2)}\n`,
      );
    else io.stdout.write(`${render(reports)}${withheld.length > 0 ? withheldLines(withheld) : ""}`);
    return reports.every((report) => report.status === "connected") ? EXIT_CODES.completed : EXIT_CODES.error;
  } finally {
    await set.close();
  }
}

function render(reports: readonly ServerReport[]): string {
  const table = formatTable(
    ["SERVER", "TYPE", "STATUS", "TOOLS", "FROM", "COMMAND / URL"],
    reports.map((r) => [r.name, r.type, r.status, String(r.tools.length), r.source, r.target]),
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

function withheldLines(withheld: ReadonlyArray<{ server: string; source: string }>): string {
  return withheld
    .map(
      (item) =>
        `${item.server} (${item.source}): not started, withheld until you trust this folder (agentry trust)\n`,
    )
    .join("");
}
