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
  /**
   * Starts the watchdog if it is not running yet. Call it before spawning what it will watch: its own
   * start is a fork of agentry, and agentry killed meanwhile would leave the new group unwatched.
   */
  start(): void;
  /** Kill this process group if agentry dies before `release`. */
  watch(pgid: number): void;
  /** The group has ended: stop watching it. */
  release(pgid: number): void;
}

/** Starts the watchdog on first use; one per process is enough (`processSupervisor`). */
export function createProcessSupervisor(): ProcessSupervisor {
  let watchdog: ChildProcess | undefined;
  let failed = false;
  const start = () => {
    if (failed || watchdog !== undefined) return;
    try {
      watchdog = spawn("/bin/sh", ["-c", SCRIPT], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
    } catch {
      failed = true;
      return;
    }
    const fail = () => {
      failed = true;
    };
    watchdog.on("error", fail);
    watchdog.stdin?.on("error", fail);
    // It must not keep agentry alive.
    watchdog.unref();
  };
  const send = (line: string) => {
    start();
    if (!failed) watchdog?.stdin?.write(`${line}\n`);
  };
  return {
    start,
    watch: (pgid) => send(`+${pgid}`),
    release: (pgid) => send(`-${pgid}`),
  };
}

/** The supervisor of this process's commands. */
export const processSupervisor: ProcessSupervisor = createProcessSupervisor();
