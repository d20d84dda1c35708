import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { findExecutable } from "./find-executable.ts";
import type { SandboxBackend } from "./policy.ts";

/** What `detectSandbox` found: a backend, or why there is none and how to get one. */
export type SandboxSupport =
  | { available: true; backend: SandboxBackend }
  | { available: false; reason: string; hint: string };

export interface DetectOptions {
  platform?: NodeJS.Platform;
  /** The PATH to search for `bwrap` (default: this process's). */
  path?: string;
}

const LINUX_HINT =
  "Install bubblewrap (Debian/Ubuntu: `sudo apt-get install bubblewrap`; Fedora: `sudo dnf install bubblewrap`; " +
  "Arch: `sudo pacman -S bubblewrap`) and make sure user namespaces are enabled " +
  "(`sysctl kernel.unprivileged_userns_clone=1`, or on Ubuntu 24.04+ an AppArmor profile for bwrap; in a container, " +
  "run it with `--security-opt seccomp=unconfined` or `--privileged`). `agentry doctor` checks again.";

/**
 * Finds the OS sandbox of this machine: bubblewrap on Linux (probed by running it once, since a
 * container or a kernel setting can forbid the namespaces it needs), Seatbelt (`sandbox-exec`) on macOS.
 */
export async function detectSandbox(options: DetectOptions = {}): Promise<SandboxSupport> {
  const platform = options.platform ?? process.platform;
  if (platform === "darwin") {
    const path = "/usr/bin/sandbox-exec";
    return existsSync(path)
      ? { available: true, backend: { kind: "seatbelt", path } }
      : {
          available: false,
          reason: "sandbox-exec was not found",
          hint: "It ships with macOS; check /usr/bin.",
        };
  }
  if (platform !== "linux") {
    return {
      available: false,
      reason: `there is no OS sandbox for ${platform}`,
      hint: "Run agentry on Linux (bubblewrap) or macOS (Seatbelt), e.g. in WSL 2 on Windows.",
    };
  }
  const path = findExecutable("bwrap", process.cwd(), options.path ?? process.env.PATH ?? "");
  if (path === undefined)
    return { available: false, reason: "bubblewrap (bwrap) is not installed", hint: LINUX_HINT };
  const base = ["--unshare-user", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--proc", "/proc"];
  const full = await probe(path, [...base, "--disable-userns", "--cap-drop", "ALL", "--", "true"]);
  if (full.ok) return { available: true, backend: { kind: "bwrap", path, disableUserns: true } };
  const older = await probe(path, [...base, "--cap-drop", "ALL", "--", "true"]);
  if (older.ok) return { available: true, backend: { kind: "bwrap", path, disableUserns: false } };
  return {
    available: false,
    reason: `bubblewrap cannot create its namespaces here: ${older.error}`,
    hint: LINUX_HINT,
  };
}

function probe(file: string, args: string[]): Promise<{ ok: true } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 5_000 }, (error, _stdout, stderr) => {
      if (error === null) resolve({ ok: true });
      else resolve({ ok: false, error: String(stderr).trim() || error.message });
    });
  });
}
