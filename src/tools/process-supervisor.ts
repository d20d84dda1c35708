import { type ChildProcess, spawn } from "node:child_process";

/**
 * A watchdog that outlives agentry for one purpose: when agentry's process ends in any way (even
 * SIGKILL, which no handler sees), it kills the process groups of the commands still running. It is a
 * tiny shell reading one pipe; agentry holds the other end, which the kernel closes when agentry
 * dies. `+pgid` registers a group, `-pgid` forgets it (the group ended, so its number may be reused).
 *
 * Inside the OS sandbox bubblewrap's `--die-with-parent` does the same; this covers commands run
 * without it (no sandbox available, or Seatbelt, which has no process namespace) and MCP servers.
 */
const SCRIPT = `
trap '' INT TERM HUP
groups=" "
while IFS= read -r line; do
  case "$line" in
    +*) groups="$groups\${line#+} " ;;
    -*) kept=" "; for g in $groups; do [ "$g" = "\${line#-}" ] || kept="$kept$g "; done; groups="$kept" ;;
  esac
done
# No "--": dash reads "-PGID" after a signal name as a process group, and rejects "--".
for g in $groups; do kill -KILL "-$g" 2>/dev/null; done
`;

export interface ProcessSupervisor {
  /** Kill this process group if agentry dies before `release`. */
  watch(pgid: number): void;
  /** The group has ended: stop watching it. */
  release(pgid: number): void;
}

/** Starts the watchdog on first use; one per process is enough (`processSupervisor`). */
export function createProcessSupervisor(): ProcessSupervisor {
  let watchdog: ChildProcess | undefined;
  let failed = false;
  const send = (line: string) => {
    if (failed) return;
    if (watchdog === undefined) {
      try {
        watchdog = spawn("/bin/sh", ["-c", SCRIPT], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
      } catch {
        failed = true;
        return;
      }
      watchdog.on("error", () => {
        failed = true;
      });
      // It must not keep agentry alive.
      watchdog.unref();
      watchdog.stdin?.on("error", () => {
        failed = true;
      });
    }
    watchdog.stdin?.write(`${line}\n`);
  };
  return {
    watch: (pgid) => send(`+${pgid}`),
    release: (pgid) => send(`-${pgid}`),
  };
}

/** The supervisor of this process's commands. */
export const processSupervisor: ProcessSupervisor = createProcessSupervisor();
