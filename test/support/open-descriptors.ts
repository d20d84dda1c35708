import { readdirSync, readlinkSync } from "node:fs";

/** The descriptors this process holds open on any of `paths`, as those paths (Linux: /proc/self/fd). */
export function openedHere(paths: readonly string[]): string[] {
  const open: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (paths.includes(target)) open.push(target);
    } catch {
      // Closed while we looked.
    }
  }
  return open;
}
