import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { WATCHDOG_NAME } from "../../src/tools/process/process-supervisor.ts";

// The process supervisor's watchdogs (src/tools/process/process-supervisor.ts) as /proc shows them:
// found by their name, and described when a "no process of the run is left" check fails, so that a
// failure seen once under load says whether the watchdog was still waiting (and who held the other
// end of its stdin) or gone.

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** The watchdogs `parent` started: call it while `parent` is alive (their parent is it then). */
export function watchdogsOf(parent: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    if (!read(`/proc/${entry}/cmdline`).split("\0").includes(WATCHDOG_NAME)) continue;
    const ppid = /^PPid:\s+(\d+)$/m.exec(read(`/proc/${entry}/status`))?.[1];
    if (Number(ppid) === parent) found.push(Number(entry));
  }
  return found;
}

/** Each watchdog: gone, or its state and who holds the peer of its stdin (from `ss -xp`). */
export function describeWatchdogs(pids: readonly number[]): string {
  if (pids.length === 0) return "no watchdog of that agentry was found while it ran";
  return pids
    .map((pid) => {
      const status = read(`/proc/${pid}/status`);
      if (status === "") return `watchdog ${pid}: gone`;
      const state = /^State:\s+(.+)$/m.exec(status)?.[1] ?? "?";
      let stdin = "";
      try {
        stdin = readlinkSync(`/proc/${pid}/fd/0`);
      } catch {}
      const inode = /socket:\[(\d+)\]/.exec(stdin)?.[1];
      const peers =
        inode === undefined
          ? ""
          : (spawnSync("ss", ["-xp"], { encoding: "utf8" }).stdout ?? "")
              .split("\n")
              .filter((line) => line.includes(` ${inode} `))
              .join(" | ");
      return `watchdog ${pid}: ${state}, stdin ${stdin || "?"}${peers === "" ? "" : `; ss: ${peers}`}`;
    })
    .join("; ");
}
