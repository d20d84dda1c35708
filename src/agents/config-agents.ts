import { realpath } from "node:fs/promises";
import { type LoadedFile, listAgentFiles, readAgentFile, withPromptFile } from "./agent-folder.ts";
import type { AgentSourceKind } from "./definition.ts";
import type { Diagnostic } from "./diagnostics.ts";
import type { LoadResult } from "./loaders/load-context.ts";
import type { OpenCodeFile } from "./loaders/opencode-level.ts";

/**
 * A config file of another harness that declares agents among its other settings. OpenCode's
 * opencode.json(c) is read with its level's agent folders instead (`loadOpenCodeSources`).
 */
export interface AgentConfigFile {
  file: string;
  format: "codex-config";
  kind: AgentSourceKind;
  /** Prompt files are read only under this folder (the project, or the home folder). */
  baseDir: string;
}

/**
 * The agents of one config file: the `[agents.<name>]` roles of a Codex config.toml with their
 * `config_file`s. `roleFiles` are the real paths of those role files, which the `.codex/agents/` folder
 * then does not load a second time. A missing file is no agents.
 */
export async function loadConfigAgents(
  source: AgentConfigFile,
): Promise<{ loaded: LoadedFile[]; roleFiles: string[] }> {
  const text = await readAgentFile(source.file);
  if (typeof text !== "string") {
    const missing = /ENOENT|ENOTDIR/.test(text.message);
    return { loaded: missing ? [] : [{ file: source.file, diagnostics: [text] }], roleFiles: [] };
  }
  return codexRoles(text, source);
}

/**
 * One level's OpenCode definitions, read together as OpenCode merges them: its config files (in
 * OpenCode's order, a later one winning) and the Markdown files of its agent folders.
 */
export interface OpenCodeSources {
  configs: readonly string[];
  folders: readonly string[];
  kind: AgentSourceKind;
  baseDir: string;
  homeDir: string;
}

export async function loadOpenCodeSources(sources: OpenCodeSources): Promise<LoadedFile[]> {
  const problems: Diagnostic[] = [];
  const configs: OpenCodeFile[] = [];
  for (const file of sources.configs) {
    const text = await readAgentFile(file);
    if (typeof text === "string") configs.push({ path: file, text });
    // A config that is there but cannot be read may hold limits: the level's agents must not load.
    else if (!/ENOENT|ENOTDIR/.test(text.message)) problems.push(text);
  }
  const markdown: OpenCodeFile[] = [];
  const skipped: LoadedFile[] = [];
  for (const dir of sources.folders) {
    const folder = {
      dir,
      format: "opencode",
      kind: sources.kind,
      recursive: true,
      extension: ".md",
    } as const;
    const listing = await listAgentFiles({ ...folder, baseDir: sources.baseDir }, new Set());
    for (const problem of listing.problems) skipped.push({ file: problem.file, diagnostics: [problem] });
    for (const file of listing.files) {
      const text = await readAgentFile(file);
      if (typeof text === "string") markdown.push({ path: file, text });
      else skipped.push({ file, diagnostics: [text] });
    }
  }
  if (configs.length === 0 && markdown.length === 0) return [...skipped, ...fileProblems(problems)];
  const { loadOpenCodeLevel } = await import("./loaders/opencode-level.ts");
  const { agents, diagnostics } = loadOpenCodeLevel({
    kind: sources.kind,
    configs,
    markdown,
    unreadableConfigs: problems.map((problem) => problem.file),
    homeDir: sources.homeDir,
  });
  const loaded = await withPromptFiles(agents, [...problems, ...diagnostics], sources.baseDir);
  return [...skipped, ...loaded];
}

function fileProblems(problems: Diagnostic[]): LoadedFile[] {
  return problems.map((problem) => ({ file: problem.file, diagnostics: [problem] }));
}

/** The agents' prompt files read (only under `root`), and the config files' own problems first. */
async function withPromptFiles(
  agents: readonly LoadResult[],
  diagnostics: Diagnostic[],
  root: string,
): Promise<LoadedFile[]> {
  const loaded: LoadedFile[] = fileProblems(diagnostics);
  for (const agent of agents) {
    const problems: Diagnostic[] = [...agent.diagnostics];
    const file = agent.definition?.source.path ?? agent.diagnostics[0]?.file ?? "";
    let definition = agent.definition;
    if (definition !== undefined && agent.promptFile !== undefined) {
      definition = await withPromptFile(definition, agent.promptFile, { file, root, diagnostics: problems });
    }
    loaded.push(
      definition === undefined
        ? { file, diagnostics: problems }
        : { file, definition, diagnostics: problems },
    );
  }
  return loaded;
}

async function codexRoles(
  text: string,
  source: AgentConfigFile,
): Promise<{ loaded: LoadedFile[]; roleFiles: string[] }> {
  const { codexConfigRoles } = await import("./loaders/codex-config.ts");
  const { loadCodexAgent } = await import("./loaders/codex.ts");
  const { roles, diagnostics } = codexConfigRoles(text, source.file);
  const loaded: LoadedFile[] = diagnostics.length > 0 ? [{ file: source.file, diagnostics }] : [];
  const roleFiles: string[] = [];
  for (const role of roles) {
    const file = role.configFile ?? source.file;
    let roleText = "";
    if (role.configFile !== undefined) {
      const read = await readAgentFile(role.configFile);
      if (typeof read !== "string") {
        loaded.push({
          file: source.file,
          diagnostics: [
            {
              ...read,
              file: source.file,
              message: `role "${role.name}": config_file ${role.configFile}: ${read.message}`,
              ...(role.line === undefined ? {} : { line: role.line }),
            },
          ],
        });
        continue;
      }
      roleText = read;
      roleFiles.push(await realpath(role.configFile).catch(() => role.configFile ?? file));
    }
    const result = loadCodexAgent(roleText, file, source.kind, role);
    loaded.push(
      result.definition === undefined
        ? { file, diagnostics: result.diagnostics }
        : { file, definition: result.definition, diagnostics: result.diagnostics },
    );
  }
  return { loaded, roleFiles };
}
