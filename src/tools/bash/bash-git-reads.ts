import { isAbsolute, posix, relative, resolve } from "node:path";
import { DEFAULT_COMMAND_ENV } from "../../sandbox/command-env.ts";
import { type GitRead, gitContentReads } from "../../shell/git-reads.ts";
import { errorMessage } from "../../text/error-message.ts";
import { isInside } from "../../text/path-inside.ts";
import type { ExecOptions } from "../operations.ts";
import { type ToolContext, ToolError } from "../tool.ts";
import { toPosix } from "../walk/walk-files.ts";

const GIT_TIMEOUT_MS = 30_000;
/**
 * Settings for agentry's own git calls here: nothing the repository's config says may run a program
 * (fsmonitor, signature checks) or change how names are printed.
 */
const SAFE_GIT =
  "git -c core.fsmonitor=false -c core.untrackedCache=false -c log.showSignature=false -c core.quotePath=false";

/**
 * The `read` a git command amounts to, asked before it runs (sandboxed or not): the files it prints by
 * name (`git show HEAD:.env`, `git blame .env`), and for a command that may print files it does not
 * name (`git log -p`, `git show <rev>`, `git diff`, `git grep`) every file the repository's history, its
 * index (and, for `--untracked`/`--no-index`, the working tree) holds under its pathspecs. So a
 * committed `.env` that the rules ask for or deny is asked for or denied, as `read .env` is; a history
 * that holds no such file costs nothing but the listing. Folders name no content and are not asked.
 */
export async function checkGitReads(command: string, ctx: ToolContext): Promise<void> {
  const reads = gitContentReads(command);
  if (reads.length === 0) return;
  const repository = repositoryListing(ctx);
  const patterns = new Set<string>();
  const add = (path: string | undefined) => {
    if (path !== undefined && path !== ".") patterns.add(path);
  };
  for (const read of reads) {
    for (const file of read.files) {
      add(
        file.fromRoot ? fromRepositoryTop(file.path, await repository.prefix()) : inWorkspace(ctx, file.path),
      );
    }
    for (const operand of read.ambiguous) {
      const path = inWorkspace(ctx, operand);
      // git takes an operand for a path when one exists by that name, else for a revision.
      if (path !== undefined && (await ctx.ops.lstat(resolve(ctx.workspace, path))) !== undefined) add(path);
    }
    // Run from another folder (`git -C sub blame .env`, `cd sub && …`), the names it gives are
    // relative to a folder this reading cannot place: as for a read that names none, every file may be.
    if (!read.unnamed && !read.elsewhere) continue;
    const limits = read.elsewhere ? undefined : limitsOf(ctx, read);
    for (const path of await repository.files(read)) {
      if (limits === undefined || limits.some((limit) => isUnder(path, limit))) add(path);
    }
  }
  if (patterns.size === 0) return;
  const commands = [...new Set(reads.map((read) => read.command))].join("; ");
  await ctx.ask({
    permission: "read",
    patterns: [...patterns].sort(),
    title: `${commands} may print files from git (its history, index or working tree)`,
  });
}

/** The repository's prefix and files, each listed once per call, relative to the workspace. */
function repositoryListing(ctx: ToolContext) {
  let prefix: Promise<string | undefined> | undefined;
  const listed = new Map<string, Promise<string[]>>();
  const getPrefix = () => {
    prefix ??= git(ctx, "rev-parse --show-prefix").then((output) =>
      output === undefined ? undefined : output.trim(),
    );
    return prefix;
  };
  return {
    prefix: getPrefix,
    files(sources: { history: boolean; untracked: boolean }): Promise<string[]> {
      const key = `${sources.history} ${sources.untracked}`;
      let pending = listed.get(key);
      if (pending === undefined) {
        pending = listFiles(ctx, getPrefix, sources);
        listed.set(key, pending);
      }
      return pending;
    },
  };
}

async function listFiles(
  ctx: ToolContext,
  prefix: () => Promise<string | undefined>,
  sources: { history: boolean; untracked: boolean },
): Promise<string[]> {
  const top = await prefix();
  if (top === undefined) return [];
  const lists = [
    "ls-files -z",
    // Every path any commit of any ref or reflog entry changed (merges against each parent). The
    // listing costs about as much as `git log --stat` of the whole history.
    ...(sources.history ? ["log --all --reflog --format= --name-only --no-renames -m -z"] : []),
    ...(sources.untracked ? ["ls-files -z --others"] : []),
  ];
  const found = new Set<string>();
  for (const list of lists) {
    const output = await git(ctx, list);
    if (output === undefined) throw unlisted(`git ${list} failed`);
    for (const name of output.split("\0")) {
      const path = name.replace(/^\n+/, "");
      if (path !== "") found.add(fromRepositoryTop(path, top) ?? path);
    }
  }
  return [...found];
}

/** Runs `git <args>` where the command would run; its output, or undefined outside a repository. */
async function git(ctx: ToolContext, args: string): Promise<string | undefined> {
  const sandbox = ctx.commands?.sandbox;
  const options: ExecOptions = {
    cwd: ctx.workspace,
    signal: ctx.signal,
    timeoutMs: GIT_TIMEOUT_MS,
    inheritEnv: ctx.commands?.env ?? DEFAULT_COMMAND_ENV,
    ...(sandbox === undefined ? {} : { sandbox: { policy: sandbox, profile: "read-only" as const } }),
  };
  const result = await ctx.ops.exec(`${SAFE_GIT} ${args} 2>/dev/null`, options).catch((error: unknown) => {
    throw unlisted(errorMessage(error));
  });
  if (result.timedOut || result.aborted) throw unlisted(`git ${args} did not finish`);
  // 128: not a repository (the command itself will say so).
  if (result.exitCode === 128 && args.startsWith("rev-parse")) return undefined;
  return result.exitCode === 0 ? result.output : undefined;
}

/** Failing to list what a command may print must not let it print unchecked (fail closed). */
function unlisted(reason: string): ToolError {
  return new ToolError(
    `The command was not run: it may print files of the git repository, and which ones could not be listed to check them against the read rules (${reason}). Name the files you need with \`-- <path>\`, or read them with the read tool.`,
  );
}

/** A path relative to the repository's top as a workspace path (`../x` above the workspace). */
function fromRepositoryTop(path: string, prefix: string | undefined): string | undefined {
  const clean = posix.normalize(path).replace(/\/+$/, "");
  if (prefix === undefined || prefix === "") return clean;
  return posix.relative(prefix.replace(/\/+$/, ""), clean) || ".";
}

/** A path relative to the command's folder (the workspace) as a workspace path; undefined outside it. */
function inWorkspace(ctx: ToolContext, path: string): string | undefined {
  const absolute = resolve(ctx.workspace, path);
  if (!isInside(absolute, ctx.workspace))
    return isAbsolute(path) ? undefined : toPosix(relative(ctx.workspace, absolute));
  return toPosix(relative(ctx.workspace, absolute)) || ".";
}

function limitsOf(ctx: ToolContext, read: GitRead): string[] | undefined {
  if (read.within === undefined) return undefined;
  const limits = read.within.map((path) => inWorkspace(ctx, path));
  return limits.every((limit) => limit !== undefined) ? (limits as string[]) : undefined;
}

function isUnder(path: string, limit: string): boolean {
  if (limit === ".") return path !== ".." && !path.startsWith("../");
  return path === limit || path.startsWith(`${limit}/`);
}
