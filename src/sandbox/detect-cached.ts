import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { release } from "node:os";
import { join } from "node:path";
import { type DetectOptions, detectSandbox, type SandboxSupport } from "./detect.ts";
import { findExecutable } from "./find-executable.ts";

export interface CachedDetectOptions extends DetectOptions {
  /** The user's state folder for agentry (e.g. `~/.local/state/agentry`); the result is kept there. */
  stateDir: string;
  now?: () => number;
}

/** A kept result older than this is probed again, whatever else holds. */
export const PROBE_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const FILE = "sandbox-probe.json";

/**
 * `detectSandbox`, without running bubblewrap again when this machine, since its last boot, already
 * showed that this same bwrap binary works (~10 ms of each start). Only a working sandbox is kept:
 * a failed probe is never remembered, so fixing the machine takes effect on the next run. What the
 * result depends on is the key — the binary (path, inode, size, times), the boot, the kernel, the user
 * and the kernel settings that allow user namespaces — and anything unreadable or different, or an
 * entry a day old, means probing again. A kept result that has gone wrong anyway fails closed:
 * commands are refused by bwrap, never run outside the sandbox.
 */
export async function detectSandboxCached(options: CachedDetectOptions): Promise<SandboxSupport> {
  const platform = options.platform ?? process.platform;
  if (platform !== "linux") return detectSandbox(options);
  const probed = await probeKey(options.path ?? process.env.PATH ?? "");
  if (probed === undefined) return detectSandbox(options);
  const { key, binary } = probed;
  const file = join(options.stateDir, FILE);
  const now = options.now?.() ?? Date.now();
  const kept = await readKept(file);
  // The entry names the program every command will be run through: it is used only when that is the
  // very binary the key describes, so an edited entry cannot put another program in bwrap's place.
  if (
    kept !== undefined &&
    kept.key === key &&
    kept.support.backend.path === binary &&
    now - kept.at >= 0 &&
    now - kept.at < PROBE_CACHE_MAX_AGE_MS
  )
    return kept.support;
  const support = await detectSandbox(options);
  if (support.available && support.backend.path === binary)
    await keep(options.stateDir, file, { key, at: now, support }).catch(() => {});
  return support;
}

interface Kept {
  key: string;
  at: number;
  support: SandboxSupport & { available: true };
}

/** What the probe's answer depends on, as one string, and the bwrap it is about; undefined when bwrap is not on the PATH. */
async function probeKey(path: string): Promise<{ key: string; binary: string } | undefined> {
  const binary = findExecutable("bwrap", process.cwd(), path);
  if (binary === undefined) return undefined;
  const [info, boot, ...settings] = await Promise.all([
    stat(binary),
    readText("/proc/sys/kernel/random/boot_id"),
    readText("/proc/sys/kernel/unprivileged_userns_clone"),
    readText("/proc/sys/user/max_user_namespaces"),
    readText("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
  ]);
  // Without a boot id a reboot could not be told apart: never reuse a result then.
  if (boot === undefined) return undefined;
  const key = JSON.stringify({
    binary,
    file: [info.dev, info.ino, info.size, info.mtimeMs, info.ctimeMs],
    boot,
    kernel: release(),
    uid: process.getuid?.(),
    settings,
  });
  return { key, binary };
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    return undefined;
  }
}

/** The kept entry, or undefined when there is none or it is not exactly what `keep` writes. */
async function readKept(file: string): Promise<Kept | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { key, at, support } = value as Record<string, unknown>;
  if (typeof key !== "string" || typeof at !== "number" || typeof support !== "object" || support === null)
    return undefined;
  const { available, backend } = support as Record<string, unknown>;
  if (available !== true || typeof backend !== "object" || backend === null) return undefined;
  const { kind, path, disableUserns } = backend as Record<string, unknown>;
  if (kind !== "bwrap" || typeof path !== "string" || typeof disableUserns !== "boolean") return undefined;
  return { key, at, support: { available: true, backend: { kind, path, disableUserns } } };
}

/** Written whole or not at all (a temp file renamed), readable by this user only. */
async function keep(dir: string, file: string, kept: Kept): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}-${Date.now()}.tmp`;
  await writeFile(temp, `${JSON.stringify(kept)}\n`, { mode: 0o600 });
  await rename(temp, file);
}
