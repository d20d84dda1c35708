import { stat } from "node:fs/promises";
import { resolveWorkspace } from "../workspace.ts";
import { configFilePaths, type Env, SETTINGS_ENV } from "./config-locations.ts";
import type { Settings } from "./resolve-settings.ts";

/**
 * The settings of `workspace` from its config files and the `AGENTRY_*` variables, validated: a bad
 * file or value is a `UsageError` (exit 2), the same in every command. `undefined` when nothing is
 * configured. The config's modules load zod (~80 ms, as long as listing 10,000 task records:
 * docs/benchmarks.md), so they load only when a config file is not missing or a variable is set.
 */
export async function loadConfiguredSettings(workspace: string, env: Env): Promise<Settings | undefined> {
  const found = await Promise.all(configFilePaths(workspace, env).map((path) => notMissing(path)));
  const variables = Object.values(SETTINGS_ENV);
  if (!found.includes(true) && !variables.some((name) => env[name]?.trim())) return undefined;
  const { loadConfigFiles } = await import("./load-config.ts");
  const { resolveSettings } = await import("./resolve-settings.ts");
  return resolveSettings(await loadConfigFiles({ workspace, env }), {}, env);
}

/** For commands that use no setting: refuses an invalid config as `run` would, so no command ignores it. */
export async function checkConfig(workspace: string, env: Env): Promise<void> {
  await loadConfiguredSettings(workspace, env);
}

/** The workspace (`--cwd`) of a command that uses no setting, its config checked as `run` would. */
export async function checkedWorkspace(
  cwdFlag: string | undefined,
  io: { cwd: string; env: Env },
): Promise<string> {
  const workspace = await resolveWorkspace(cwdFlag, io.cwd);
  await checkConfig(workspace, io.env);
  return workspace;
}

/** False only for a path that does not exist: anything else is for the config loader to judge. */
async function notMissing(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== "ENOENT",
  );
}
