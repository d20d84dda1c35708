import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { errorMessage } from "../../text/error-message.ts";
import { type Env, userStateDir } from "./config-locations.ts";
import type { Withheld } from "./withheld.ts";

/**
 * The folders the user trusts, kept in the user's state (never in a workspace): each with the hash
 * of the widening settings it held when trusted, so a later pull that adds an MCP server or an allow
 * rule is not trusted until the user says so again.
 */
export interface TrustedFolder {
  path: string;
  hash: string;
  trustedAt: string;
}

const VERSION = 1;

/** `$XDG_STATE_HOME/agentry/trusted-folders.json`. */
export function trustFilePath(env: Env): string {
  return join(userStateDir(env), "trusted-folders.json");
}

/**
 * The hash of what a folder's trust would let apply: the `untrusted` withheld settings, by file,
 * setting and value, in a stable order. An empty list hashes too (nothing to trust).
 */
export function wideningHash(withheld: readonly Withheld[]): string {
  const items = withheld
    .filter((item) => item.kind === "untrusted")
    .map((item) => canonical({ source: item.source, setting: item.setting, value: item.value }))
    .sort();
  return createHash("sha256").update(items.join("\n")).digest("hex");
}

/** Every folder the user trusted with `agentry trust`. An unreadable file trusts nothing (and says so). */
export async function readTrustedFolders(env: Env): Promise<{ folders: TrustedFolder[]; problem?: string }> {
  const path = trustFilePath(env);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { folders: [] };
    return { folders: [], problem: `${path}: cannot read the trusted folders (${errorMessage(error)})` };
  }
  try {
    const data = JSON.parse(text) as { version?: unknown; folders?: unknown };
    if (data.version !== VERSION || typeof data.folders !== "object" || data.folders === null)
      throw new Error("not a trust file");
    const folders = Object.entries(data.folders as Record<string, unknown>).flatMap(([folder, entry]) => {
      const record = entry as Partial<TrustedFolder> | null;
      return typeof record?.hash === "string" && typeof record.trustedAt === "string"
        ? [{ path: folder, hash: record.hash, trustedAt: record.trustedAt }]
        : [];
    });
    return { folders };
  } catch (error) {
    return {
      folders: [],
      problem: `${path}: the trusted folders cannot be read (${errorMessage(error)}); no folder is trusted until it is fixed or removed`,
    };
  }
}

/** Records that the user trusts `folder` (a real path) as its widening settings stand (`hash`). */
export async function trustFolder(env: Env, folder: string, hash: string, now = new Date()): Promise<void> {
  const { folders, problem } = await readTrustedFolders(env);
  if (problem !== undefined) throw new Error(problem);
  const kept = folders.filter((entry) => entry.path !== folder);
  await writeFolders(env, [...kept, { path: folder, hash, trustedAt: now.toISOString() }]);
}

/** Forgets `folder`; false when it was not trusted. */
export async function revokeTrust(env: Env, folder: string): Promise<boolean> {
  const { folders, problem } = await readTrustedFolders(env);
  if (problem !== undefined) throw new Error(problem);
  const kept = folders.filter((entry) => entry.path !== folder);
  if (kept.length === folders.length) return false;
  await writeFolders(env, kept);
  return true;
}

async function writeFolders(env: Env, folders: readonly TrustedFolder[]): Promise<void> {
  const path = trustFilePath(env);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const data = {
    version: VERSION,
    folders: Object.fromEntries(
      folders.map((entry) => [entry.path, { hash: entry.hash, trustedAt: entry.trustedAt }]),
    ),
  };
  // A temp file and a rename: a reader never sees half a file.
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, path);
}

/** Whether `folder` is at or under one of the user config's `trustedFolders` (absolute or `~/…`). */
export function listedAsTrusted(folder: string, listed: readonly string[], env: Env): string | undefined {
  const home = env.HOME || homedir();
  return listed.find((entry) => {
    const expanded = entry === "~" ? home : entry.startsWith("~/") ? join(home, entry.slice(2)) : entry;
    if (!isAbsolute(expanded)) return false;
    const root = resolve(expanded);
    return folder === root || folder.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
  });
}

/** JSON with object keys sorted at every depth, so equal values hash equally. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === "object" && item !== null && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
