import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { relative } from "node:path";
import { type LoadedAgents, loadAgentDefinitions } from "../../agents/discover.ts";
import { confineProjectDefinitions } from "../../agents/project-definitions.ts";
import { discoverSkills } from "../../skills/discover-skills.ts";
import type { LoadedSkills } from "../../skills/skill.ts";
import { resolveWorkspace } from "../workspace.ts";
import { type ProjectHooks, projectHooks } from "./hook-sources.ts";
import { type ConfigLayer, type Env, type LoadedConfig, loadConfigFiles } from "./load-config.ts";
import { readClaudeSettings } from "./peers/claude-settings.ts";
import { readPeerLayers } from "./peers/read-peers.ts";
import { endpointCheck, resolveSettings, type SettingFlags, type Settings } from "./resolve-settings.ts";
import { withheldSkillGrants } from "./skill-sources.ts";
import { listedAsTrusted, readTrustedFolders, trustFolder, wideningHash } from "./trust-store.ts";
import type { Withheld } from "./withheld.ts";

/** Whether the user trusts the folder, and by what. */
export interface FolderTrust {
  trusted: boolean;
  /** `--trust-project`, `agentry trust` (the trusted-folders file), or the user config's `trustedFolders`. */
  by?: string;
  /** Trusted before, but its widening settings changed since (a pull added an MCP server …). */
  changed?: boolean;
  /** The trusted-folders file could not be read: nothing is trusted (fail closed). */
  problem?: string;
}

/**
 * Everything a workspace's files say, read in one place and resolved with the folder's trust: the
 * settings (flags > env > project > user > defaults, the project narrowing at once and widening only
 * trusted), the agent definitions of every format (confined the same way), and what was withheld.
 */
export interface ProjectView {
  workspace: string;
  /** The workspace's real path: what trust is recorded for. */
  folder: string;
  loaded: LoadedConfig;
  settings: Settings;
  agents: LoadedAgents;
  /** Claude Code hooks of every settings file: what runs, and (untrusted) the project's withheld. */
  hooks: ProjectHooks;
  /** The skills of the project's and the user's skill folders (their grants follow the trust). */
  skills: LoadedSkills;
  /** What the project's files hold that does not apply: `untrusted` until trusted, `never` at all. */
  withheld: Withheld[];
  /** The hash of the widening settings (`wideningHash`): what `agentry trust` records. */
  hash: string;
  trust: FolderTrust;
}

export interface ReadProjectOptions {
  workspace: string;
  env: Env;
  flags?: SettingFlags;
  /** `--trust-project`: trust the folder for this run (nothing is recorded). */
  trustProject?: boolean;
  /**
   * Asks the person whether to trust the folder (interactive `chat`), given what trust would let
   * apply; called only when the folder is not trusted and something waits for trust. True records it.
   */
  confirmTrust?: (view: ProjectView) => Promise<boolean>;
}

/**
 * The workspace (`--cwd`) and its files read with the folder's trust (`--trust-project` lets them widen
 * this run), for the commands that show them rather than run the agent (`config`, `mcp list`).
 */
export async function readWorkspace(
  options: { cwd?: string; trustProject?: boolean },
  io: { cwd: string; env: Env },
): Promise<{ workspace: string; project: ProjectView }> {
  const workspace = await resolveWorkspace(options.cwd, io.cwd);
  const project = await readProject({
    workspace,
    env: io.env,
    ...(options.trustProject === undefined ? {} : { trustProject: options.trustProject }),
  });
  return { workspace, project };
}

/** Reads and resolves a workspace's configuration with its trust (see `ProjectView`). */
export async function readProject(options: ReadProjectOptions): Promise<ProjectView> {
  const { workspace, env } = options;
  const flags = options.flags ?? {};
  // Claude Code's settings are read once: for the peers' settings and for its hooks.
  const claude = await readClaudeSettings(workspace, env);
  const loaded: LoadedConfig = {
    ...(await loadConfigFiles({ workspace, env })),
    peers: await readPeerLayers(workspace, env, claude),
  };
  const raw = await loadAgentDefinitions({ projectDir: workspace, homeDir: env.HOME || homedir() });
  const skills = await discoverSkills(workspace, env.HOME || homedir());
  const folder = await realpath(workspace).catch(() => workspace);
  const view = (trust: FolderTrust): ProjectView => {
    const settings = resolveSettings(loaded, flags, env, { trusted: trust.trusted });
    const agents = confineProjectDefinitions(raw, {
      trusted: trust.trusted,
      sameEndpoint: endpointCheck(loaded, flags, env),
      withheldServers: withheldServerNames(settings.withheld),
    });
    const hooks = projectHooks(loaded, claude, trust.trusted);
    const withheld = [
      ...settings.withheld,
      ...hooks.withheld,
      ...withheldSkillGrants(workspace, skills, trust.trusted),
      ...agents.withheld.map((item) => agentWithheld(workspace, item)),
    ];
    return {
      workspace,
      folder,
      loaded,
      settings,
      agents: agents.loaded,
      hooks,
      skills,
      withheld,
      hash: "",
      trust,
    };
  };
  const untrusted = view({ trusted: false });
  const hash = wideningHash(untrusted.withheld);
  const trust = await decideTrust(folder, hash, loaded.user, options, env);
  if (trust.trusted) return { ...view(trust), hash };
  const result = { ...untrusted, hash, trust };
  const waiting = result.withheld.some((item) => item.kind === "untrusted");
  if (waiting && trust.problem === undefined && (await options.confirmTrust?.(result))) {
    await trustFolder(env, folder, hash);
    return { ...view({ trusted: true, by: "agentry trust" }), hash };
  }
  return result;
}

async function decideTrust(
  folder: string,
  hash: string,
  user: ConfigLayer | undefined,
  options: ReadProjectOptions,
  env: Env,
): Promise<FolderTrust> {
  if (options.trustProject === true) return { trusted: true, by: "--trust-project" };
  const listed = listedAsTrusted(folder, user?.config.trustedFolders ?? [], env);
  if (listed !== undefined && user !== undefined)
    return { trusted: true, by: `trustedFolders in ${user.label} (${listed})` };
  const { folders, problem } = await readTrustedFolders(env);
  if (problem !== undefined) return { trusted: false, problem };
  const record = folders.find((entry) => entry.path === folder);
  if (record === undefined) return { trusted: false };
  if (record.hash === hash) return { trusted: true, by: "agentry trust" };
  return { trusted: false, changed: true };
}

function withheldServerNames(withheld: readonly Withheld[]): string[] {
  return withheld.flatMap((item) => {
    const match = /^MCP server "(.+)"$/.exec(item.setting);
    return match?.[1] === undefined ? [] : [match[1]];
  });
}

function agentWithheld(
  workspace: string,
  item: ReturnType<typeof confineProjectDefinitions>["withheld"][number],
): Withheld {
  const source = relative(workspace, item.path) || item.path;
  return {
    source,
    setting: `agent "${item.agent}" ${item.setting}`,
    kind: item.kind,
    value: item.value,
    ...(item.kind === "never"
      ? {
          reason: "a project never allows leaving the sandbox or the workspace; allow it in your user config",
        }
      : {}),
  };
}
