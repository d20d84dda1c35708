import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage } from "../../text/error-message.ts";
import { UsageError } from "../errors.ts";
import { type Env, PROJECT_CONFIG_FILES, userConfigPath } from "./config-locations.ts";
import { formatConfigIssues } from "./format-issues.ts";
import { type ConfigFile, configFileSchema } from "./schema.ts";

export type { Env };

/** One config file that was found and validated. */
export interface ConfigLayer {
  /** How messages name the file: relative to the workspace for project files, absolute otherwise. */
  label: string;
  path: string;
  config: ConfigFile;
}

export interface LoadedConfig {
  user?: ConfigLayer;
  project?: ConfigLayer;
  /**
   * Settings of other harnesses translated into agentry's keys (`peers/`): Claude Code's, OpenCode's
   * and Codex's files, each at its level. At the same level agentry's own file wins over a peer's.
   */
  peers?: PeerLayer[];
}

/** A peer's settings file, as agentry reads it. */
export interface PeerLayer extends ConfigLayer {
  scope: "user" | "project";
  /** What the file held that agentry does not use, and why (shown by `agentry config`). */
  notes: string[];
}

export { PROJECT_CONFIG_FILES, userConfigPath };

/**
 * Finds, parses and validates the user and project config files. A missing file is fine; an
 * unreadable, malformed or invalid one is a `UsageError` naming the file and the bad key.
 */
export async function loadConfigFiles(options: { workspace: string; env: Env }): Promise<LoadedConfig> {
  const loaded: LoadedConfig = {};
  const userPath = userConfigPath(options.env);
  const user = await loadConfigFile(userPath, userPath);
  if (user) loaded.user = user;

  const found: ConfigLayer[] = [];
  for (const relative of PROJECT_CONFIG_FILES) {
    const layer = await loadConfigFile(join(options.workspace, relative), relative);
    if (layer) found.push(layer);
  }
  if (found.length > 1) {
    throw new UsageError(
      `Both ${PROJECT_CONFIG_FILES.join(" and ")} exist in ${options.workspace}; keep only one project config file.`,
    );
  }
  if (found[0]) loaded.project = found[0];
  return loaded;
}

/** Reads one config file; `undefined` when it does not exist. */
export async function loadConfigFile(path: string, label: string): Promise<ConfigLayer | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isNodeError(error) && error.code === "ENOENT") return undefined;
    const reason = errorMessage(error);
    throw new UsageError(`${label}: cannot read the config file: ${reason}`, { cause: error });
  }
  return { label, path, config: parseConfigText(text, label) };
}

/** Parses and validates the text of a config file; errors name `label` and the offending key. */
export function parseConfigText(text: string, label: string): ConfigFile {
  const data = parseJsonText(text, label);
  const result = configFileSchema.safeParse(data, { reportInput: true });
  if (!result.success) {
    throw new UsageError(formatConfigIssues(label, result.error.issues, configFileSchema));
  }
  return result.data;
}

/**
 * `JSON.parse`, with a usage error naming `label` for text that is not JSON. A leading byte-order mark
 * (Notepad and other Windows editors save one) is not part of the JSON, so it is dropped first.
 */
export function parseJsonText(text: string, label: string): unknown {
  try {
    return JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (error) {
    const reason = errorMessage(error);
    throw new UsageError(`${label}: invalid JSON: ${reason}`, { cause: error });
  }
}

function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && "code" in error;
}
