import { execFile } from "node:child_process";
import { AgentryError } from "../../errors/agentry-error.ts";

export class GitError extends AgentryError {
  override readonly name = "GitError";
  readonly kind = "system";
}

export interface GitOptions {
  /** More variables for this call (`GIT_INDEX_FILE` for a private index). */
  env?: Record<string, string>;
  /** More configuration for this call (`user.name` …), after agentry's own (so it may not undo it). */
  config?: Record<string, string>;
  /**
   * A fetch or push: the user's global and system config stay (credentials, ssh, URL rewrites — files
   * no command can write); everything else of the calls below holds.
   */
  transfer?: boolean;
}

/**
 * agentry's own git commands run outside the sandbox, in repositories a model may have worked in.
 * Nothing there may make them run a program: no hook, no fsmonitor, no attributes file of the machine,
 * no submodule recursion, no automatic gc, and only the protocols a fleet uses (`https`, `ssh`, `file`
 * and plain paths: `GIT_ALLOW_PROTOCOL`). Set through the environment (`GIT_CONFIG_KEY_<n>`), like
 * `-c`, ahead of a call's own. The machine's and the user's config are not read (but by fetch and push),
 * except the user's identity and `safe.directory`, passed on (`userSettings`).
 */
const SAFE_CONFIG: Readonly<Record<string, string>> = {
  "core.fsmonitor": "false",
  "core.hooksPath": "/dev/null",
  "core.attributesFile": "/dev/null",
  "submodule.recurse": "false",
  "status.submoduleSummary": "false",
  "diff.ignoreSubmodules": "all",
  "gc.auto": "0",
  "maintenance.auto": "false",
};

/** The protocols a fleet's remote may use (`file` covers plain paths). */
export const GIT_PROTOCOLS = "https:ssh:file";

/**
 * Subcommands that never read a file of the checkout through a filter driver of `.gitattributes`; every
 * other one runs with the repository's drivers silenced (clean runs on add, status and even write-tree,
 * smudge on checkout and worktree add).
 */
const NOT_FILTERING = new Set([
  "config",
  "rev-parse",
  "remote",
  "init",
  "fetch",
  "push",
  "branch",
  "commit-tree",
]);

/**
 * Variables that make git work on another repository, index or config than the one in `cwd`: agentry's
 * caller may have set them (agentry run from a git hook), and they must not steer agentry's own calls.
 */
const STEERING =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|NAMESPACE|CONFIG.*|ATTR_.*|EXTERNAL_DIFF|EXEC_PATH|TEMPLATE_DIR|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|ALLOW_PROTOCOL|PROTOCOL_FROM_USER)$/;

/** Runs git in `cwd` and returns its trimmed stdout; throws `GitError` with git's own message. */
export async function git(cwd: string, args: string[], options: GitOptions = {}): Promise<string> {
  const drivers = NOT_FILTERING.has(args[0] ?? "") ? [] : await filterDrivers(cwd);
  const config: Array<[string, string]> = [
    ...(options.transfer ? [] : await userSettings()),
    ...Object.entries(SAFE_CONFIG),
    ...silenced(drivers),
    ...Object.entries(options.config ?? {}),
  ];
  return run(cwd, args, environment(config, options));
}

/** True when `git` succeeds, false when it fails for any reason. */
export async function gitSucceeds(cwd: string, args: string[], options: GitOptions = {}): Promise<boolean> {
  try {
    await git(cwd, args, options);
    return true;
  } catch {
    return false;
  }
}

/**
 * The filter drivers the repository's own config defines (`filter.<name>.*`; the machine's and the
 * user's config are not read by agentry's git). A `.gitattributes` a command wrote may name any of them.
 */
async function filterDrivers(cwd: string): Promise<string[]> {
  const text = await run(
    cwd,
    ["config", "--null", "--name-only", "--get-regexp", "^filter\\."],
    environment([...(await userSettings()), ...Object.entries(SAFE_CONFIG)], {}),
  ).catch(() => "");
  const names = text
    .split("\0")
    .filter((key) => key.startsWith("filter.") && key.lastIndexOf(".") > "filter.".length)
    .map((key) => key.slice("filter.".length, key.lastIndexOf(".")));
  return [...new Set(names)];
}

/** A driver with no command does nothing (git stores and checks out the bytes as they are). */
function silenced(drivers: readonly string[]): Array<[string, string]> {
  return drivers.flatMap(
    (name): Array<[string, string]> => [
      [`filter.${name}.clean`, ""],
      [`filter.${name}.smudge`, ""],
      [`filter.${name}.process`, ""],
      [`filter.${name}.required`, "false"],
    ],
  );
}

/** What of the user's and the machine's config agentry's git keeps: who commits, and trusted folders. */
const PASSED_ON = "^(user\\.name|user\\.email|safe\\.directory)$";
let passedOn: Promise<Array<[string, string]>> | undefined;

/** The user's identity and `safe.directory` entries from their global and the system config (read once). */
function userSettings(): Promise<Array<[string, string]>> {
  passedOn ??= (async () => {
    const read = (scope: string) =>
      run(
        "/",
        ["config", scope, "--null", "--get-regexp", PASSED_ON],
        environment([], { transfer: true }),
      ).catch(() => "");
    const text = `${await read("--system")}\0${await read("--global")}`;
    return text
      .split("\0")
      .map((entry) => entry.split("\n"))
      .filter((parts): parts is [string, string] => parts.length === 2 && parts[0] !== "")
      .map(([key, value]) => [key, value]);
  })();
  return passedOn;
}

function environment(
  config: ReadonlyArray<readonly [string, string]>,
  options: GitOptions,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!STEERING.test(name)) env[name] = value;
  const entries = config;
  entries.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  env.GIT_CONFIG_COUNT = String(entries.length);
  env.GIT_ALLOW_PROTOCOL = GIT_PROTOCOLS;
  env.GIT_ATTR_NOSYSTEM = "1";
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_PAGER = "cat";
  if (!options.transfer) {
    env.GIT_CONFIG_NOSYSTEM = "1";
    env.GIT_CONFIG_GLOBAL = "/dev/null";
  }
  return { ...env, ...options.env };
}

function run(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        const detail = String(stderr).trim() || error.message;
        reject(new GitError(`git ${args.join(" ")} failed: ${detail}`));
        return;
      }
      resolve(String(stdout).trim());
    });
  });
}
