import type { Ruleset, SandboxProfile } from "../permissions/types.ts";

export type { SandboxProfile } from "../permissions/types.ts";

/** The OS mechanism that confines commands, as found on this machine (`detectSandbox`). */
export type SandboxBackend =
  | {
      kind: "bwrap";
      /** Absolute path of the bubblewrap binary. */
      path: string;
      /** Whether this bwrap takes `--disable-userns` (0.8+): a command cannot make a namespace of its own. */
      disableUserns: boolean;
    }
  | { kind: "seatbelt"; path: string };

/**
 * Where one agent's commands may read, write and connect: plain data, derived from the agent's
 * permission rules (`policyForAgent`), never wider than its parent's. A command runs in a profile no
 * wider than `ceiling`.
 */
export interface SandboxPolicy {
  backend: SandboxBackend;
  /** The widest profile this agent's commands get: `read-only` for agents that cannot edit. */
  ceiling: SandboxProfile;
  /** Absolute real path of the agent's workspace, its commands' working directory. */
  workspace: string;
  /**
   * Absolute paths shown read-only although they lie under the private /tmp: the repository around a
   * workspace that is a sub-folder or a linked worktree of it, so git still finds its data.
   */
  readableRoots: string[];
  /** Absolute real paths a `workspace-write` command may write: the workspace, a worktree's git folders. */
  writableRoots: string[];
  /** Paths config lets writing commands write besides the workspace (`sandbox.allowWrite`), kept for children. */
  extraWritable: string[];
  /** Absolute paths under the writable roots that stay read-only (agentry's config, agent settings …). */
  readOnlyPaths: string[];
  /**
   * The git folders of the workspace's repository that `workspace-write` commands may commit to, shared
   * one first (a linked worktree has two): read-only as a whole but for what commits need
   * (`git-dir-view.ts`). Empty where commands may not write git's data (or in `bypass`, where the
   * workspace's `.git` is writable like the rest).
   */
  gitDirs: string[];
  /** Absolute paths commands cannot read (keys in the home folder, `/etc/shadow` …). */
  hiddenPaths: string[];
  /** The agent's `read` rules: workspace files they do not allow (`.env` …) are hidden too. */
  readRules: Ruleset;
  /** Hosts commands may reach through agentry's proxy; empty: no network at all. */
  allowedHosts: string[];
}

/** What config says about sandboxing commands (`sandbox` in agentry.json), already validated. */
export interface SandboxSettings {
  /** false: commands run without an OS sandbox (the analysis of the command line stands alone). */
  enabled: boolean;
  /** Hosts commands may reach (`registry.npmjs.org`, `*.github.com`); default none. */
  allowedHosts: string[];
  /** More paths commands may not read (absolute, or `~/…`). */
  denyRead: string[];
  /** More paths writing commands may write (absolute, or `~/…`), such as a package manager's cache. */
  allowWrite: string[];
  /** Names of more environment variables commands inherit (`GITHUB_TOKEN`, `MY_*`). */
  env: string[];
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = {
  enabled: true,
  allowedHosts: [],
  denyRead: [],
  allowWrite: [],
  env: [],
};

/** How one agent's commands run: confined by `sandbox` (absent where there is no OS sandbox), with `env`. */
export interface CommandPolicy {
  /** The OS sandbox; absent when none is available or config turned it off (the analysis then stands alone). */
  sandbox?: SandboxPolicy;
  /** Names of agentry's environment variables commands inherit (`LC_*`: a prefix). */
  env: readonly string[];
  /** Variables set for every command (`env` of the settings; Claude Code's settings `env`). */
  values?: Readonly<Record<string, string>>;
}
