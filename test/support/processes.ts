import { existsSync, readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { scaled } from "./time-scale.ts";

/**
 * Alive and not a zombie. A killed process whose parent died stays a zombie until init reaps it, and a
 * container's PID 1 may never do so: dead, but still signalable.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return process.platform !== "linux";
  }
}

/**
 * Polls `check` every 20 ms; true as soon as it holds, false when `timeoutMs` — a hang guard, stretched
 * by the run's time scale (`scaled`) — passed without it.
 */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<boolean> {
  const end = Date.now() + scaled(timeoutMs);
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(20);
  }
  return check();
}

/** `until`, throwing when the condition never held; `what` names the condition in the error. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 3000,
  what = "a condition",
): Promise<void> {
  if (!(await until(check, timeoutMs)))
    throw new Error(`timed out after ${scaled(timeoutMs)} ms waiting for ${what}`);
}

/** The pid a command wrote with `echo $$ > file`, once it is there (a scaled hang guard, like `until`). */
export async function pidFrom(file: string, timeoutMs = 10_000): Promise<number> {
  const written = () => existsSync(file) && /^\d+\s*$/.test(readFileSync(file, "utf8"));
  if (!(await until(written, timeoutMs)))
    throw new Error(`timed out after ${scaled(timeoutMs)} ms: no pid in ${file}`);
  return Number(readFileSync(file, "utf8").trim());
}

/** Pids of the live (not zombie) processes whose command line is exactly `commandLine` (Linux: /proc). */
export function processesRunning(commandLine: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    } catch {
      continue;
    }
    if (cmdline === commandLine && isRunning(Number(entry))) pids.push(Number(entry));
  }
  return pids;
}
