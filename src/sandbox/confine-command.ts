import { existsSync } from "node:fs";
import { lstat, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { bwrapArgs, type Confinement } from "./bwrap-args.ts";
import { type StagedGitDir, stageGitDir } from "./git-dir-view.ts";
import { bridgeArgv, launcherArgv, proxyEnv } from "./network-bridge.ts";
import { createNetworkGateway, type NetworkGateway } from "./network-gateway.ts";
import type { SandboxPolicy, SandboxProfile } from "./policy.ts";
import { seatbeltArgs } from "./seatbelt-profile.ts";
import { unixSocketFilterFile, withFilterOnFd } from "./seccomp-filter.ts";
import { UnreadableFileFinder } from "./unreadable-files.ts";

/** How to start one confined command, and what to do once it exited. */
export interface ConfinedSpawn {
  file: string;
  args: string[];
  /** Variables set for the command inside the sandbox (its private TMPDIR …). */
  env: Record<string, string>;
  /** The profile it really runs in (never wider than the policy's ceiling). */
  profile: SandboxProfile;
  /**
   * After the command: removes the protected paths it created (they did not exist, so nothing could
   * be mounted read-only over them) and its private temp dir; returns the workspace-relative names removed.
   */
  afterExit(): Promise<string[]>;
}

export interface ConfineOptions {
  /** Where the walk for unreadable workspace files is memoized; default: one finder per process. */
  finder?: UnreadableFileFinder;
  /** Where the proxies for allowed hosts run; default: one gateway per process. */
  network?: NetworkGateway;
}

const sharedFinder = new UnreadableFileFinder();
const sharedNetwork = createNetworkGateway();
/** The descriptor bubblewrap reads the seccomp filter from (3 is the bridge's channel under the launcher). */
const FILTER_FD = 3;
const LAUNCHER_FILTER_FD = 4;
/** The bridge's port inside the sandbox: the network namespace is the command's own, so any port is free. */
const BRIDGE_PORT = 3128;

/**
 * Wraps `argv` (e.g. `["bash", "-c", command]`) to run under `policy` in `profile` (narrowed to the
 * policy's ceiling), in `cwd`. Only paths that exist are mounted; a protected path that does not
 * exist yet is watched instead and removed if the command creates it.
 */
export async function confineCommand(
  policy: SandboxPolicy,
  profile: SandboxProfile,
  argv: readonly string[],
  cwd: string,
  options: ConfineOptions = {},
): Promise<ConfinedSpawn> {
  const effective: SandboxProfile = policy.ceiling === "read-only" ? "read-only" : profile;
  const finder = options.finder ?? sharedFinder;
  const unreadable = await finder.find(policy.workspace, policy.readRules);
  const hidden = [
    ...policy.hiddenPaths,
    ...(unreadable.kind === "files"
      ? unreadable.paths.map((path) => join(policy.workspace, path))
      : [policy.workspace]),
  ];
  const { files: hiddenFiles, dirs: hiddenDirs } = await classifyExisting(hidden);
  // A git folder gone since the policy was made is watched like a protected path: the command may not
  // make a .git of its own there (with hooks or an fsmonitor the user's git would run).
  const writes = effective === "workspace-write";
  const gitDirs = writes ? policy.gitDirs.filter((path) => existsSync(path)) : [];
  const goneGitDirs = (): string[] =>
    policy.gitDirs.filter(
      (path) => !gitDirs.includes(path) && policy.writableRoots.some((root) => path.startsWith(`${root}/`)),
    );
  const readOnly = writes ? await splitExisting([...policy.readOnlyPaths, ...goneGitDirs()]) : undefined;
  const confinement: Confinement = {
    profile: effective,
    cwd,
    workspace: policy.workspace,
    readableRoots: [...policy.readableRoots, ...toolsUnderTmp()].filter((path) => existsSync(path)),
    writableRoots: policy.writableRoots.filter((path) => existsSync(path)),
    readOnlyPaths: readOnly?.existing ?? [],
    gitDirs,
    gitViews: [],
    hiddenFiles,
    hiddenDirs,
  };
  const watched = readOnly?.missing ?? [];
  const removeCreated = async (): Promise<string[]> => {
    const removed: string[] = [];
    for (const path of watched) {
      if ((await lstat(path).catch(() => undefined)) === undefined) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(relative(policy.workspace, path));
    }
    return removed;
  };

  const { backend } = policy;
  if (backend.kind === "bwrap") {
    const staged = await stageGitDirs(gitDirs);
    if (staged === undefined) confinement.readOnlyPaths = [...confinement.readOnlyPaths, ...gitDirs];
    else confinement.gitViews = staged.map((dir) => dir.view);
    const afterExit = async () => {
      for (const dir of staged ?? []) await dir.finish();
      return removeCreated();
    };
    const env: Record<string, string> = { TMPDIR: "/tmp", GIT_DISCOVERY_ACROSS_FILESYSTEM: "1" };
    const done = { env, profile: effective, afterExit };
    // No Unix socket either: a host service's (ssh-agent, D-Bus, docker.sock) is out of reach.
    const filter = unixSocketFilterFile();
    if (policy.allowedHosts.length === 0) {
      if (filter === undefined)
        return { ...done, file: backend.path, args: bwrapArgs(backend, confinement, argv) };
      const args = bwrapArgs(backend, { ...confinement, seccompFd: FILTER_FD }, argv);
      return { ...done, file: "/bin/sh", args: withFilterOnFd(filter, FILTER_FD, backend.path, args) };
    }
    // Allowed hosts: the command's only way out is the bridge to agentry's proxy, which checks each host.
    const proxy = await (options.network ?? sharedNetwork)
      .proxyFor(policy.allowedHosts)
      .catch(async (error) => {
        await afterExit();
        throw error;
      });
    Object.assign(env, proxyEnv(BRIDGE_PORT));
    const command = bridgeArgv(proxy.socketPath, BRIDGE_PORT, argv);
    if (filter === undefined) {
      // Without a filter the bridge reaches the proxy's socket itself, through its folder.
      confinement.extraBinds = [proxy.socketDir];
      return { ...done, file: backend.path, args: bwrapArgs(backend, confinement, command) };
    }
    // With it, the launcher outside hands the bridge its connections to the proxy (and only those).
    const args = bwrapArgs(backend, { ...confinement, seccompFd: LAUNCHER_FILTER_FD }, command);
    const [file, ...rest] = launcherArgv(proxy.socketPath, filter, LAUNCHER_FILTER_FD, backend.path, args);
    return { ...done, file: file as string, args: rest };
  }
  // Seatbelt cannot move folders: the private temp dir is a fresh host folder, removed afterwards. It
  // has no network namespace either, so allowed hosts are not offered there (no network at all).
  const privateTmp = await mkdtemp(join(tmpdir(), "agentry-cmd-"));
  return {
    file: backend.path,
    args: seatbeltArgs(confinement, privateTmp, argv),
    env: { TMPDIR: privateTmp },
    profile: effective,
    afterExit: async () => {
      await rm(privateTmp, { recursive: true, force: true });
      return removeCreated();
    },
  };
}

/**
 * The views of the git folders a command may commit to (`git-dir-view.ts`); undefined when one cannot
 * be made, and then the caller keeps them all read-only (fail closed).
 */
async function stageGitDirs(paths: readonly string[]): Promise<StagedGitDir[] | undefined> {
  const staged: StagedGitDir[] = [];
  for (const path of paths) {
    const dir = await stageGitDir(path).catch(() => undefined);
    if (dir === undefined) {
      for (const done of staged) await done.finish();
      return undefined;
    }
    staged.push(dir);
  }
  return staged;
}

/** Folders whose contents every command's private /tmp would otherwise hide. */
const PRIVATE_TMP_PREFIXES = ["/tmp/", "/var/tmp/"];

/**
 * What commands need that lives under /tmp, which the sandbox replaces with an empty private folder:
 * the Node running agentry (the network bridge runs on it), agentry's own files (the bridge script)
 * and the PATH's folders — a checkout or CI clone under /tmp is not rare. Shown read-only.
 */
function toolsUnderTmp(): string[] {
  const candidates = [
    dirname(dirname(process.execPath)),
    fileURLToPath(new URL("../../", import.meta.url)),
    ...(process.env.PATH ?? "").split(delimiter),
  ];
  return [
    ...new Set(candidates.filter((path) => PRIVATE_TMP_PREFIXES.some((prefix) => path.startsWith(prefix)))),
  ];
}

/** Existing paths, sorted into files and folders (following symlinks); nested ones under a hidden folder dropped. */
async function classifyExisting(paths: readonly string[]): Promise<{ files: string[]; dirs: string[] }> {
  const sorted = [...new Set(paths)].sort();
  const infos = await Promise.all(sorted.map((path) => stat(path).catch(() => undefined)));
  const files: string[] = [];
  const dirs: string[] = [];
  sorted.forEach((path, index) => {
    const info = infos[index];
    if (info === undefined || dirs.some((dir) => path.startsWith(`${dir}/`))) return;
    (info.isDirectory() ? dirs : files).push(path);
  });
  return { files, dirs };
}

/**
 * Protected paths that exist (mounted read-only) and, for those that do not, the first missing
 * component of each (`.git` when there is no repository), which the command must not create.
 */
async function splitExisting(paths: readonly string[]): Promise<{ existing: string[]; missing: string[] }> {
  const found = await Promise.all(
    paths.map((path) =>
      lstat(path).then(
        () => true,
        () => false,
      ),
    ),
  );
  const existing = paths.filter((_, index) => found[index]);
  const missing = new Set<string>();
  for (const path of paths.filter((_, index) => !found[index])) {
    let first = path;
    while (!existsSync(dirname(first)) && dirname(first) !== first) first = dirname(first);
    missing.add(first);
  }
  return { existing, missing: [...missing] };
}
