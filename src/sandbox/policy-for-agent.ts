import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { evaluate } from "../permissions/evaluate.ts";
import type { PermissionMode } from "../permissions/modes.ts";
import { PROTECTED_GIT_PATHS, PROTECTED_PATHS } from "../permissions/protected-paths.ts";
import { editRestrictedPaths, literalPathPrefix } from "../permissions/sandbox-coverage.ts";
import type { Ruleset } from "../permissions/types.ts";
import { wildcardMatch } from "../permissions/wildcard.ts";
import { findGitLayout, type GitLayout } from "./git-layout.ts";
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
  const git = await findGitLayout(workspace);
  const writableRoots = readOnly ? [] : unique([workspace, ...gitWritable(git), ...from.extraWritable]);
  const underWritable = (path: string) => writableRoots.some((root) => isAtOrUnder(path, root));
  const readOnlyPaths = readOnly
    ? []
    : unique([
        ...(input.mode === "bypass" ? [] : protectedPaths(workspace, git)),
        ...editRestrictedPaths(rules).map((path) => resolve(workspace, path)),
        ...from.inheritedReadOnly,
      ]).filter(underWritable);
  return {
    backend: from.backend,
    ceiling: readOnly ? "read-only" : "workspace-write",
    workspace,
    readableRoots:
      git === undefined ? [] : unique([git.top, git.commonDir]).filter((path) => path !== workspace),
    writableRoots,
    extraWritable: [...from.extraWritable],
    readOnlyPaths,
    hiddenPaths: unique([...from.hidden]),
    readRules: rules.filter((rule) => wildcardMatch(rule.permission, "read")),
    allowedHosts: [...from.allowedHosts],
  };
}

/** A linked worktree's commands may commit: its own git folder and the shared objects, refs and logs. */
function gitWritable(git: GitLayout | undefined): string[] {
  if (git?.worktreeDir === undefined) return [];
  return [git.worktreeDir, ...["objects", "refs", "logs"].map((part) => join(git.commonDir, part))];
}

function protectedPaths(workspace: string, git: GitLayout | undefined): string[] {
  const paths = PROTECTED_PATHS.filter((path) => path !== ".git").map((path) => join(workspace, path));
  if (git === undefined) return [...paths, join(workspace, ".git")];
  const inGitDir = PROTECTED_GIT_PATHS.map((path) => path.slice(".git/".length));
  paths.push(...inGitDir.map((part) => join(git.commonDir, part)));
  if (git.worktreeDir !== undefined) {
    paths.push(join(git.top, ".git"), join(git.worktreeDir, "config.worktree"));
  }
  return paths;
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
