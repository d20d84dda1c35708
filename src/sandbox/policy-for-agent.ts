import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { evaluate } from "../permissions/evaluate.ts";
import type { PermissionMode } from "../permissions/modes.ts";
import { PROTECTED_PATHS } from "../permissions/protected-paths.ts";
import { editRestrictedPaths, literalPathPrefix } from "../permissions/sandbox-coverage.ts";
import type { Ruleset } from "../permissions/types.ts";
import { wildcardMatch } from "../permissions/wildcard.ts";
import { GIT_WRITABLE_DIRS } from "./git-dir-view.ts";
import { findGitLayout, type GitLayout, gitLayoutProblem } from "./git-layout.ts";
import { narrowHosts } from "./network-hosts.ts";
import type { SandboxBackend, SandboxPolicy, SandboxSettings } from "./policy.ts";
import { secretPaths } from "./secret-paths.ts";

interface PolicyInput {
  /** The agent's effective permission rules (a child's already carry every deny of its ancestors). */
  rules: Ruleset;
  mode: PermissionMode;
  /** Absolute real path of the agent's workspace. */
  workspace: string;
}

export interface AgentSandboxInput extends PolicyInput {
  backend: SandboxBackend;
  settings: SandboxSettings;
  /** Default: the current user's home folder. */
  home?: string;
}

export interface ChildSandboxInput extends PolicyInput {
  /** The calling agent's policy: the child's is never wider. */
  parent: SandboxPolicy;
  /** The hosts the child's definition asks for (`allowedHosts`): they narrow the parent's. */
  allowedHosts?: readonly string[];
}

/** A path that only a `*` pattern matches: "a file of the workspace in general". */
const ANY_PATH = "\u0000any-path";

/**
 * The sandbox of the root agent's commands, from its rules and the config: agents that cannot edit
 * (read-only rules, `--permission-mode plan`) get a read-only workspace; others may write the
 * workspace except protected paths (in every mode but bypass) and what their edit rules keep back.
 * Reads are denied where the read rules, known secret places and the config say so.
 */
export async function policyForAgent(input: AgentSandboxInput): Promise<SandboxPolicy> {
  const { settings, workspace } = input;
  const home = input.home ?? homedir();
  const expand = (path: string) => expandPath(path, home, workspace);
  return derive(input, {
    backend: input.backend,
    readOnly: false,
    extraWritable: settings.allowWrite.map(expand),
    inheritedReadOnly: [],
    hidden: [
      ...secretPaths(home),
      ...settings.denyRead.map(expand),
      ...deniedAbsolutePaths(input.rules, home),
    ],
    allowedHosts: [...settings.allowedHosts],
  });
}

/**
 * A child's sandbox: derived from its own rules and workspace like the root's, and never wider than
 * its parent's — a read-only parent has read-only children, hidden and read-only paths add up, and
 * the hosts (narrowed by the definition's own `allowedHosts`), extra writable paths and secrets are
 * the parent's.
 */
export async function policyForChild(input: ChildSandboxInput): Promise<SandboxPolicy> {
  const { parent } = input;
  return derive(input, {
    backend: parent.backend,
    readOnly: parent.ceiling === "read-only",
    extraWritable: parent.extraWritable,
    inheritedReadOnly: parent.readOnlyPaths,
    hidden: [...parent.hiddenPaths, ...deniedAbsolutePaths(input.rules, homedir())],
    allowedHosts:
      input.allowedHosts === undefined
        ? parent.allowedHosts
        : narrowHosts(parent.allowedHosts, input.allowedHosts),
  });
}

interface Inherited {
  backend: SandboxBackend;
  readOnly: boolean;
  extraWritable: readonly string[];
  inheritedReadOnly: readonly string[];
  hidden: readonly string[];
  allowedHosts: readonly string[];
}

async function derive(input: PolicyInput, from: Inherited): Promise<SandboxPolicy> {
  const { rules, workspace } = input;
  const readOnly = from.readOnly || input.mode === "plan" || evaluate(rules, "edit", ANY_PATH) === "deny";
  const layout = await findGitLayout(workspace);
  const git = gitAccess(layout, workspace, input.mode === "bypass");
  const writableRoots = readOnly ? [] : unique([workspace, ...git.writable, ...from.extraWritable]);
  const underWritable = (path: string) => writableRoots.some((root) => isAtOrUnder(path, root));
  const readOnlyPaths = readOnly
    ? []
    : unique([
        ...(input.mode === "bypass" ? [] : protectedPaths(workspace)),
        ...git.readOnly,
        ...editRestrictedPaths(rules).map((path) => resolve(workspace, path)),
        ...from.inheritedReadOnly,
      ]).filter(underWritable);
  return {
    backend: from.backend,
    ceiling: readOnly ? "read-only" : "workspace-write",
    workspace,
    readableRoots:
      layout === undefined
        ? []
        : unique([layout.top, layout.commonDir, layout.gitDir]).filter(
            (path) => path !== workspace && !isAtOrUnder(path, workspace),
          ),
    writableRoots,
    extraWritable: [...from.extraWritable],
    readOnlyPaths,
    gitDirs: readOnly ? [] : git.dirs,
    hiddenPaths: unique([...from.hidden]),
    readRules: rules.filter((rule) => wildcardMatch(rule.permission, "read")),
    allowedHosts: [...from.allowedHosts],
  };
}

interface GitAccess {
  /** Git folders commands may commit to, through a view (`SandboxPolicy.gitDirs`). */
  dirs: string[];
  /** Git paths that stay read-only as a whole. */
  readOnly: string[];
  /** Git folders writable as they are (bypass only). */
  writable: string[];
}

/**
 * What writing commands may do to the workspace's repository. Its git folder (both, for a linked
 * worktree) is read-only but for what commits need, when it lies in the workspace or the workspace is
 * a linked worktree (a sub-folder of a main checkout may not commit). A `.git` the command could create
 * in the workspace — where git would find it first — is watched. A layout that is not git's own (a
 * planted `commondir`) is read-only as a whole. In `bypass` the workspace's `.git` is writable like the
 * rest, and a linked worktree's folders too.
 */
function gitAccess(layout: GitLayout | undefined, workspace: string, bypass: boolean): GitAccess {
  const none: GitAccess = { dirs: [], readOnly: [], writable: [] };
  const dotGit = join(workspace, ".git");
  if (bypass) {
    if (!layout?.linked) return none;
    const shared = GIT_WRITABLE_DIRS.map((part) => join(layout.commonDir, part));
    return { ...none, writable: [layout.gitDir, ...shared] };
  }
  if (layout === undefined) return { ...none, readOnly: [dotGit] };
  const outer = layout.top === workspace ? [] : [dotGit];
  const pointer = layout.linked ? [join(layout.top, ".git")] : [];
  if (gitLayoutProblem(layout) !== undefined)
    return { ...none, readOnly: [...outer, ...pointer, layout.gitDir, layout.commonDir] };
  if (layout.linked)
    return { ...none, dirs: [layout.commonDir, layout.gitDir], readOnly: [...outer, ...pointer] };
  return { ...none, dirs: isAtOrUnder(layout.gitDir, workspace) ? [layout.gitDir] : [], readOnly: outer };
}

/** Agentry's, the harnesses' and the editors' settings in the workspace (git's own: `gitAccess`). */
function protectedPaths(workspace: string): string[] {
  return PROTECTED_PATHS.filter((path) => path !== ".git").map((path) => join(workspace, path));
}

/** Absolute paths that `read` or `external_directory` rules deny or ask for, by their literal prefix. */
function deniedAbsolutePaths(rules: Ruleset, home: string): string[] {
  return rules
    .filter(
      (rule) =>
        rule.action !== "allow" &&
        (wildcardMatch(rule.permission, "read") || wildcardMatch(rule.permission, "external_directory")) &&
        (rule.pattern.startsWith("/") || rule.pattern.startsWith("~/")),
    )
    .map((rule) => literalPathPrefix(expandPath(rule.pattern, home, "/")))
    .filter((path) => path !== undefined)
    .map((path) => `/${path}`);
}

/** `~/x` in the home folder, `/x` as is, `x` relative to `base`. */
function expandPath(path: string, home: string, base: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? path : resolve(base, path);
}

function isAtOrUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
