import { existsSync } from "node:fs";
import type { GitDirView } from "./git-dir-view.ts";
import type { SandboxBackend, SandboxProfile } from "./policy.ts";

/** Folders every command gets empty and private (and writable, whatever its profile). */
const PRIVATE_TMP = ["/tmp", "/var/tmp", "/dev/shm"].filter((dir) => dir === "/tmp" || existsSync(dir));

/** One command's confinement, with every path absolute and known to exist. */
export interface Confinement {
  profile: SandboxProfile;
  /** The command's working directory. */
  cwd: string;
  /** The workspace: visible (read-only in the `read-only` profile) even where it lies under /tmp. */
  workspace: string;
  /** Shown read-only although under the private /tmp (the repository around the workspace). */
  readableRoots: readonly string[];
  /** Written by `workspace-write` commands; ignored for `read-only`. */
  writableRoots: readonly string[];
  /** Existing paths kept read-only under the writable roots. */
  readOnlyPaths: readonly string[];
  /** `workspace-write`: the git folders commands may commit to, each read-only but for what commits need. */
  gitDirs: readonly string[];
  /** bubblewrap: how each of `gitDirs` is shown (`git-dir-view.ts`). */
  gitViews: readonly GitDirView[];
  /** Existing files and folders that are masked: empty files, empty read-only folders. */
  hiddenFiles: readonly string[];
  hiddenDirs: readonly string[];
  /** Existing host paths bound writable into the sandbox as they are (the proxy's socket folder). */
  extraBinds?: string[];
  /** The descriptor bubblewrap reads the seccomp filter from (`seccomp-filter.ts`), if any. */
  seccompFd?: number;
}

/**
 * bubblewrap's arguments for a confinement, followed by `argv`. Every namespace is new (user, pid,
 * net, ipc, uts, cgroup): the command keeps none of root's capabilities, sees only its own processes,
 * has no network but loopback, and dies with agentry (`--die-with-parent`; its pid namespace ends when
 * its first process does, taking `cmd &` children along). Mounts, in order, later ones winning: the
 * whole file system read-only, fresh /dev, /proc and a private /tmp, the repository around the
 * workspace, the workspace (read-only or writable) and other writable roots, the git folders' views,
 * protected paths read-only again, hidden paths masked.
 */
export function bwrapArgs(
  backend: Extract<SandboxBackend, { kind: "bwrap" }>,
  confinement: Confinement,
  argv: readonly string[],
): string[] {
  const args = [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    ...(backend.disableUserns ? ["--disable-userns"] : []),
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    ...PRIVATE_TMP.flatMap((dir) => ["--tmpfs", dir]),
  ];
  for (const root of confinement.readableRoots) args.push("--ro-bind", root, root);
  if (confinement.profile === "workspace-write") {
    const roots = new Set([confinement.workspace, ...confinement.writableRoots]);
    for (const root of roots) args.push("--bind", root, root);
    for (const view of confinement.gitViews) {
      args.push("--bind", view.staging, view.path);
      for (const path of view.writable) args.push("--bind", path, path);
      for (const path of view.readOnly) args.push("--ro-bind", path, path);
    }
    for (const path of confinement.readOnlyPaths) args.push("--ro-bind", path, path);
  } else {
    args.push("--ro-bind", confinement.workspace, confinement.workspace);
  }
  for (const path of confinement.extraBinds ?? []) args.push("--bind", path, path);
  for (const file of confinement.hiddenFiles) args.push("--ro-bind", "/dev/null", file);
  for (const dir of confinement.hiddenDirs) args.push("--tmpfs", dir, "--remount-ro", dir);
  if (confinement.seccompFd !== undefined) args.push("--seccomp", String(confinement.seccompFd));
  args.push("--chdir", confinement.cwd, "--", ...argv);
  return args;
}
