import { type HookCommand, type HookSource, readHookSettings } from "../../hooks/hook-settings.ts";
import type { LoadedConfig } from "./load-config.ts";
import type { ClaudeSettingsFile } from "./peers/claude-settings.ts";
import type { Withheld } from "./withheld.ts";

/** The hooks of a workspace, as they apply with the folder's trust. */
export interface ProjectHooks {
  /** What runs: the user's always, the project's in a trusted folder; lowest precedence first. */
  hooks: HookCommand[];
  /** Hooks the files hold that agentry cannot run (another type, an event it does not fire …). */
  warnings: string[];
  /** The project's hooks in a folder the user has not trusted: each waits for `agentry trust`. */
  withheld: Withheld[];
}

/**
 * Every configured hook, from Claude Code's settings files (`~/.claude/settings.json`,
 * `.claude/settings.json`, `.claude/settings.local.json`) and agentry's config files (`hooks`, the same
 * shape). Hooks are commands that run as the user: the user's own always run; a repository's only in a
 * folder the user trusted — untrusted, each is withheld (part of the trust hash: a new hook asks again).
 */
export function projectHooks(
  loaded: LoadedConfig,
  claude: readonly ClaudeSettingsFile[],
  trusted: boolean,
): ProjectHooks {
  const sources: Array<{ source: HookSource; value: unknown }> = [
    ...claude
      .filter((file) => file.scope === "user")
      .map((file) => ({ source: { label: file.label, scope: file.scope }, value: file.settings.hooks })),
    ...(loaded.user === undefined
      ? []
      : [{ source: { label: loaded.user.label, scope: "user" as const }, value: loaded.user.config.hooks }]),
    ...claude
      .filter((file) => file.scope === "project")
      .map((file) => ({ source: { label: file.label, scope: file.scope }, value: file.settings.hooks })),
    ...(loaded.project === undefined
      ? []
      : [
          {
            source: { label: loaded.project.label, scope: "project" as const },
            value: loaded.project.config.hooks,
          },
        ]),
  ];
  const result: ProjectHooks = { hooks: [], warnings: [], withheld: [] };
  for (const { source, value } of sources) {
    const read = readHookSettings(value, source);
    result.warnings.push(...read.warnings);
    for (const hook of read.hooks) {
      if (source.scope !== "project" || trusted) {
        result.hooks.push(hook);
        continue;
      }
      result.withheld.push({
        source: source.label,
        setting: `hook ${hook.event}${hook.matcher === undefined ? "" : `[${hook.matcher}]`} "${hook.command}"`,
        kind: "untrusted",
        value: {
          event: hook.event,
          matcher: hook.matcher ?? "",
          command: hook.command,
          timeoutMs: hook.timeoutMs,
        },
      });
    }
  }
  return result;
}
