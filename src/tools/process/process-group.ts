import { readdir, readFile } from "node:fs/promises";

/** Sends `signal` to every process in the group; false when the group no longer exists. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * True while a member of the group is still running. `kill(-pgid, 0)` also succeeds for zombies, and in
 * containers whose PID 1 does not reap orphans, a killed grandchild stays a zombie indefinitely; on Linux
 * we therefore look at the members' states in /proc.
 */
export async function isProcessGroupAlive(pgid: number): Promise<boolean> {
  if (!signalProcessGroup(pgid, 0)) return false;
  if (process.platform !== "linux") return true;
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // Fields after the command name (which may contain spaces and parentheses): state ppid pgrp …
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}
