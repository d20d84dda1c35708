import { confineProjectRules } from "../permissions/project-rules.ts";
import { rulesetFromConfig } from "../permissions/ruleset-from-config.ts";
import type { AgentDefinition, McpServerRef } from "./definition.ts";
import type { LoadedAgents } from "./discover.ts";

/** One setting of a project's agent file that was not applied, for `agentry config` and the trust hash. */
export interface WithheldAgentSetting {
  /** The file (absolute path). */
  path: string;
  agent: string;
  setting: string;
  value: unknown;
  kind: "untrusted" | "never";
}

export interface ConfineDefinitionsOptions {
  /** The user trusts the folder the project's agent files are in. */
  trusted: boolean;
  /** Whether a model id stays on the endpoint of the run (see `confineProjectConfig`). */
  sameEndpoint: (modelId: string) => boolean;
  /** MCP servers of the project's config that were withheld: an agent naming one is told. */
  withheldServers?: readonly string[];
}

const UNTRUSTED = "withheld until you trust this folder (agentry trust)";

/**
 * The agents of a run as a project's files may give them. A project file's definition is marked with
 * the folder's trust (its rules then narrow only, `childRules`) and, untrusted, loses what would widen:
 * MCP servers it starts itself (a command or a URL), its hooks (commands), a remote URL (the agent then
 * cannot run and says why), permission modes beyond plan, a model on another endpoint. Each is noted on the definition
 * (the child is told) and returned. Definitions from elsewhere are kept as they are.
 */
export function confineProjectDefinitions(
  loaded: LoadedAgents,
  options: ConfineDefinitionsOptions,
): { loaded: LoadedAgents; withheld: WithheldAgentSetting[] } {
  const withheld: WithheldAgentSetting[] = [];
  const definitions = loaded.definitions.map((definition) => {
    const confined =
      definition.source.kind === "project" ? confineOne(definition, options, withheld) : definition;
    return noteWithheldServers(confined, options.withheldServers ?? []);
  });
  return { loaded: { ...loaded, definitions }, withheld };
}

function confineOne(
  definition: AgentDefinition,
  options: ConfineDefinitionsOptions,
  withheld: WithheldAgentSetting[],
): AgentDefinition {
  const path = definition.source.path ?? definition.name;
  const record = (setting: string, value: unknown, kind: "untrusted" | "never" = "untrusted") =>
    withheld.push({ path, agent: definition.name, setting, value, kind });
  const rules = readableRules(definition);
  for (const rule of confineProjectRules(rules, [], options.trusted).withheld)
    record(
      `permission ${rule.permission} '${rule.pattern}' allow`,
      rule,
      options.trusted ? "never" : "untrusted",
    );
  const result: AgentDefinition = {
    ...definition,
    source: { ...definition.source, trusted: options.trusted },
  };
  if (options.trusted) return result;

  const notes: string[] = [];
  const servers: McpServerRef[] = [];
  for (const server of definition.mcpServers ?? []) {
    if (server.config === undefined) servers.push(server);
    else {
      record(`MCP server "${server.name}"`, server.config);
      notes.push(`MCP server "${server.name}": ${UNTRUSTED}; its tools are not available`);
    }
  }
  if (definition.mcpServers !== undefined) result.mcpServers = servers;
  // Hooks are commands that run as the user: a repository's run only once the folder is trusted.
  if (definition.hooks !== undefined) {
    record("hooks", definition.hooks);
    delete result.hooks;
  }
  if (definition.url !== undefined) {
    record("url", { url: definition.url, headers: definition.headers ?? {} });
    delete result.url;
    delete result.headers;
    result.unavailable = `agent "${definition.name}" is a remote agent (${definition.url}) from a project file: its URL is ${UNTRUSTED}`;
  }
  if (definition.permissionMode === "accept-edits" || definition.permissionMode === "bypass") {
    record(`permissionMode ${definition.permissionMode}`, definition.permissionMode);
    delete result.permissionMode;
    notes.push(`permission mode "${definition.permissionMode}": ${UNTRUSTED}`);
  }
  if (
    definition.model !== undefined &&
    definition.model !== "inherit" &&
    !options.sameEndpoint(definition.model)
  ) {
    record(`model ${definition.model}`, definition.model);
    delete result.model;
    notes.push(
      `model "${definition.model}" (another provider than the run's): ${UNTRUSTED}; the parent's model is used`,
    );
  }
  if (notes.length > 0) result.withheld = [...(definition.withheld ?? []), ...notes];
  return result;
}

/** A definition naming a server the project's config had withheld is told why it has none of its tools. */
function noteWithheldServers(definition: AgentDefinition, servers: readonly string[]): AgentDefinition {
  const named = (definition.mcpServers ?? [])
    .filter((server) => server.config === undefined && servers.includes(server.name))
    .map((server) => `MCP server "${server.name}": ${UNTRUSTED}; its tools are not available`);
  return named.length === 0
    ? definition
    : { ...definition, withheld: [...(definition.withheld ?? []), ...named] };
}

/** The definition's own rules; none when its `permission` cannot be read (it cannot start anyway). */
function readableRules(definition: AgentDefinition) {
  try {
    return rulesetFromConfig(definition.permission);
  } catch {
    return [];
  }
}
