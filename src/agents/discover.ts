import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type AgentFolder, type LoadedFile, loadAgentFolder } from "./agent-folder.ts";
import { builtinAgents } from "./builtin-agents.ts";
import {
  type AgentConfigFile,
  loadConfigAgents,
  loadOpenCodeSources,
  type OpenCodeSources,
} from "./config-agents.ts";
import type { AgentDefinition, AgentFormat, AgentSourceKind } from "./definition.ts";
import { type Diagnostic, diagnostic } from "./diagnostics.ts";
import { effectiveAccess } from "./effective-access.ts";

export { type AgentFolder, type LoadedFile, loadAgentFolder } from "./agent-folder.ts";

export interface LoadedAgents {
  /** One definition per name: the winner by precedence. */
  definitions: AgentDefinition[];
  diagnostics: Diagnostic[];
}

export interface DiscoverOptions {
  projectDir: string;
  /** Default: the current user's home. */
  homeDir?: string;
  /** Default true. */
  includeBuiltins?: boolean;
}

/**
 * One place agents are read from: a folder of agent files, another harness's config file, or a level's
 * OpenCode config files and agent folders, which OpenCode reads as one.
 */
export type AgentSourceEntry =
  | ({ type: "folder" } & AgentFolder)
  | ({ type: "config" } & AgentConfigFile)
  | ({ type: "opencode" } & OpenCodeSources);

/** Where the agents of a project come from, highest precedence first. */
export function projectSources(projectDir: string, homeDir: string): AgentSourceEntry[] {
  return sourcesUnder(projectDir, "project", homeDir, [
    folder(".agentry/agents", "agentry"),
    folder("subagents", "agentscope", false),
    folder(".claude/agents", "claude"),
    // In the order OpenCode merges them: a later config's keys win, the Markdown files' over all.
    opencode(
      ["opencode.jsonc", "opencode.json", ".opencode/opencode.jsonc", ".opencode/opencode.json"],
      [".opencode/agent", ".opencode/agents"],
    ),
    config(".codex/config.toml", "codex-config"),
    folder(".codex/agents", "codex", true, ".toml"),
  ]);
}

/** Where the user's own agents come from, highest precedence first. */
export function userSources(homeDir: string): AgentSourceEntry[] {
  return sourcesUnder(homeDir, "user", homeDir, [
    folder(".agentry/agents", "agentry"),
    folder(".claude/agents", "claude"),
    opencode(
      [".config/opencode/opencode.json", ".config/opencode/opencode.jsonc"],
      [".config/opencode/agent", ".config/opencode/agents"],
    ),
    config(".codex/config.toml", "codex-config"),
    folder(".codex/agents", "codex", true, ".toml"),
  ]);
}

type Place =
  | { type: "folder"; sub: string; format: AgentFormat; recursive: boolean; extension: ".md" | ".toml" }
  | { type: "config"; sub: string; format: AgentConfigFile["format"] }
  | { type: "opencode"; configs: string[]; folders: string[] };

const folder = (
  sub: string,
  format: AgentFormat,
  recursive = true,
  extension: ".md" | ".toml" = ".md",
): Place => ({ type: "folder", sub, format, recursive, extension });

const config = (sub: string, format: AgentConfigFile["format"]): Place => ({ type: "config", sub, format });

const opencode = (configs: string[], folders: string[]): Place => ({ type: "opencode", configs, folders });

function sourcesUnder(
  root: string,
  kind: AgentSourceKind,
  homeDir: string,
  places: readonly Place[],
): AgentSourceEntry[] {
  return places.map((place): AgentSourceEntry => {
    if (place.type === "folder") return { ...place, dir: join(root, place.sub), kind, baseDir: root };
    if (place.type === "config") {
      return {
        type: "config",
        file: join(root, place.sub),
        format: place.format,
        kind,
        baseDir: root,
      };
    }
    return {
      type: "opencode",
      configs: place.configs.map((sub) => join(root, sub)),
      folders: place.folders.map((sub) => join(root, sub)),
      kind,
      baseDir: root,
      homeDir,
    };
  });
}

/**
 * Reads every agent source of the project, then of the user's home, then adds the built-ins. The
 * first definition of a name wins (project > user > built-in; within a source, the order of
 * `projectSources`/`userSources`, then path order). Never throws on a bad file; unreadable folders
 * and missing config files are simply absent.
 */
export async function loadAgentDefinitions(options: DiscoverOptions): Promise<LoadedAgents> {
  const projectDir = resolve(options.projectDir);
  const homeDir = resolve(options.homeDir ?? homedir());
  const diagnostics: Diagnostic[] = [];
  const winners = new Map<string, AgentDefinition>();
  const seen = new Set<string>();
  // Codex loads a role's config_file under the role's name; the agents folder does not load it again.
  const roleFiles = new Set<string>();

  // Running in the home directory makes the project sources and the user sources the same.
  const unseen = async (path: string): Promise<boolean> => {
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined || seen.has(real)) return false;
    seen.add(real);
    return true;
  };
  for (const source of [...projectSources(projectDir, homeDir), ...userSources(homeDir)]) {
    let loaded: LoadedFile[];
    if (source.type === "opencode") {
      const configs = await keep(source.configs, unseen);
      const folders = await keep(source.folders, unseen);
      if (configs.length === 0 && folders.length === 0) continue;
      loaded = await loadOpenCodeSources({ ...source, configs, folders });
    } else if (!(await unseen(source.type === "folder" ? source.dir : source.file))) continue;
    else if (source.type === "folder") loaded = await loadAgentFolder(source, roleFiles);
    else {
      const result = await loadConfigAgents(source);
      for (const file of result.roleFiles) roleFiles.add(file);
      loaded = result.loaded;
    }
    for (const file of loaded) {
      for (const problem of file.diagnostics) diagnostics.push(problem);
      if (file.definition !== undefined) keepFirst(winners, file.definition, diagnostics);
    }
  }
  if (options.includeBuiltins !== false) {
    for (const builtin of builtinAgents()) keepFirst(winners, builtin, diagnostics);
  }
  return { definitions: [...winners.values()], diagnostics };
}

/** The paths `check` holds for, one at a time, in order. */
async function keep(paths: readonly string[], check: (path: string) => Promise<boolean>): Promise<string[]> {
  const kept: string[] = [];
  for (const path of paths) if (await check(path)) kept.push(path);
  return kept;
}

function keepFirst(
  winners: Map<string, AgentDefinition>,
  definition: AgentDefinition,
  diagnostics: Diagnostic[],
): void {
  const winner = winners.get(definition.name);
  if (winner === undefined) {
    winners.set(definition.name, definition);
    return;
  }
  const loser = definition.source.path ?? `the ${definition.source.kind} agent`;
  const kept = winner.source.path ?? `the ${winner.source.kind} agent`;
  if (winner.source.kind === definition.source.kind) {
    diagnostics.push(
      diagnostic(
        "warning",
        loser,
        `agent "${definition.name}" is also defined in ${kept}`,
        `kept ${kept}; ignored this file`,
      ),
    );
  } else if (
    definition.source.kind === "builtin" &&
    isReadOnlyAgent(definition) &&
    !isReadOnlyAgent(winner)
  ) {
    // Not an error (a project may mean it), but never silent: `explore` is read-only for a reason.
    diagnostics.push(
      diagnostic(
        "warning",
        kept,
        `agent "${definition.name}" replaces the read-only built-in ${definition.name} with an agent that may edit files`,
        `kept ${kept}; give it limits (tools, permission) if it should stay read-only`,
      ),
    );
  } else {
    diagnostics.push(
      diagnostic(
        "info",
        loser,
        `the ${winner.source.kind} agent "${definition.name}" (${kept}) overrides this ${definition.source.kind} one`,
        `kept ${kept}`,
      ),
    );
  }
}

function isReadOnlyAgent(definition: AgentDefinition): boolean {
  return effectiveAccess(definition).readOnly;
}
