import { realpath } from "node:fs/promises";
import { type LoadedFile, readAgentFile, withPromptFile } from "./agent-folder.ts";
import type { AgentSourceKind } from "./definition.ts";
import type { Diagnostic } from "./diagnostics.ts";

/** A config file of another harness that declares agents among its other settings. */
export interface AgentConfigFile {
  file: string;
  format: "opencode-config" | "codex-config";
  kind: AgentSourceKind;
  /** Prompt files are read only under this folder (the project, or the home folder). */
  baseDir: string;
  /** Resolves `~/` in OpenCode's `{file:~/…}`. */
  homeDir: string;
}

/**
 * The agents of one config file: the `agent` entries of an opencode.json(c), or the `[agents.<name>]`
 * roles of a Codex config.toml with their `config_file`s. `roleFiles` are the real paths of those role
 * files, which the `.codex/agents/` folder then does not load a second time. A missing file is no agents.
 */
export async function loadConfigAgents(
  source: AgentConfigFile,
): Promise<{ loaded: LoadedFile[]; roleFiles: string[] }> {
  const text = await readAgentFile(source.file);
  if (typeof text !== "string") {
    const missing = /ENOENT|ENOTDIR/.test(text.message);
    return { loaded: missing ? [] : [{ file: source.file, diagnostics: [text] }], roleFiles: [] };
  }
  return source.format === "opencode-config"
    ? { loaded: await openCodeAgents(text, source), roleFiles: [] }
    : codexRoles(text, source);
}

async function openCodeAgents(text: string, source: AgentConfigFile): Promise<LoadedFile[]> {
  const { loadOpenCodeConfig } = await import("./loaders/opencode-config.ts");
  const { agents, diagnostics } = loadOpenCodeConfig(text, source.file, source.kind, source.homeDir);
  const loaded: LoadedFile[] = diagnostics.length > 0 ? [{ file: source.file, diagnostics }] : [];
  for (const agent of agents) {
    const problems: Diagnostic[] = [...agent.diagnostics];
    let definition = agent.definition;
    if (definition !== undefined && agent.promptFile !== undefined) {
      definition = await withPromptFile(definition, agent.promptFile, {
        file: source.file,
        root: source.baseDir,
        diagnostics: problems,
      });
    }
    loaded.push(
      definition === undefined
        ? { file: source.file, diagnostics: problems }
        : { file: source.file, definition, diagnostics: problems },
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
