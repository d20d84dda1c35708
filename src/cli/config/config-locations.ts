import { homedir } from "node:os";
import { join } from "node:path";

// Where configuration comes from, without the schema (zod): `agentry tasks` checks these to decide
// whether the config modules need to load at all.

export type Env = Record<string, string | undefined>;

/** `$XDG_CONFIG_HOME/agentry/config.json`, defaulting to `~/.config/agentry/config.json`. */
export function userConfigPath(env: Env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "agentry", "config.json");
}

/**
 * `$XDG_STATE_HOME/agentry`, defaulting to `~/.local/state/agentry`: what agentry keeps for the user
 * across runs and projects (the sandbox probe's result).
 */
export function userStateDir(env: Env): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state");
  return join(base, "agentry");
}

/** The two places a project may keep its config, relative to the workspace. */
export const PROJECT_CONFIG_FILES = ["agentry.json", join(".agentry", "config.json")] as const;

/** Every config file that may apply to `workspace`: the user's, then the project's. */
export function configFilePaths(workspace: string, env: Env): string[] {
  return [userConfigPath(env), ...PROJECT_CONFIG_FILES.map((file) => join(workspace, file))];
}

/** Environment variables agentry reads itself; the provider variables are read by the model registry. */
export const SETTINGS_ENV = {
  model: "AGENTRY_MODEL",
  maxTurns: "AGENTRY_MAX_TURNS",
  /** The most model calls in flight per endpoint (`--max-concurrency`). */
  maxConcurrency: "AGENTRY_MAX_CONCURRENCY",
  permissionMode: "AGENTRY_PERMISSION_MODE",
  /** `off` runs commands without the OS sandbox. */
  sandbox: "AGENTRY_SANDBOX",
} as const;
