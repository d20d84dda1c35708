import { type ChildProcess, spawn } from "node:child_process";

/**
 * A watchdog that outlives agentry for one purpose: when agentry's process ends in any way (even
 * SIGKILL, which no handler sees), it kills the process groups of the commands still running. It is a
 * tiny shell reading one pipe; agentry holds the other end, which the kernel closes when agentry
 * dies. `+pgid` registers a group, `-pgid` forgets it (the group ended, so its number may be reused).
 * The groups watched when it starts are its arguments: a watchdog that replaces a dead one knows them
 * from its first instruction, with no window in which agentry could die before telling it.
 *
 * Inside the OS sandbox bubblewrap's `--die-with-parent` does the same; this covers commands run
 * without it (no sandbox available, or Seatbelt, which has no process namespace) and MCP servers.
 */
const SCRIPT = `
trap '' INT TERM HUP
groups=" "
for g in "$@"; do groups="$groups$g "; done
while IFS= read -r line; do
  case "$line" in
    +*) groups="$groups\${line#+} " ;;
    -*) kept=" "; for g in $groups; do [ "$g" = "\${line#-}" ] || kept="$kept$g "; done; groups="$kept" ;;
  esac
done
# No "--": dash reads "-PGID" after a signal name as a process group, and rejects "--".
for g in $groups; do kill -KILL "-$g" 2>/dev/null; done
`;

/** The watchdog's `$0`: what `ps` shows for it. */
export const WATCHDOG_NAME = "agentry-watchdog";

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

/** How many times a watchdog that died while agentry runs is replaced before the supervisor gives up. */
const MAX_RESTARTS = 5;

/**
 * Starts the watchdog on first use; one per process is enough (`processSupervisor`). A watchdog that
 * dies while agentry runs (killed by someone) is replaced, and told the groups still watched.
 */
export function createProcessSupervisor(): ProcessSupervisor {
  const groups = new Set<number>();
  let watchdog: ChildProcess | undefined;
  let failed = false;
  let restarts = 0;
  const tell = (line: string) => {
    if (!failed) watchdog?.stdin?.write(`${line}\n`);
  };
  const start = () => {
    if (failed || watchdog !== undefined) return;
    let current: ChildProcess;
    try {
      current = spawn("/bin/sh", ["-c", SCRIPT, WATCHDOG_NAME, ...[...groups].map(String)], {
        detached: true,
        stdio: ["pipe", "ignore", "ignore"],
      });
    } catch {
      failed = true;
      return;
    }
    watchdog = current;
    // Could not start: nothing is watched (there is no sandbox-free way to do better).
    current.on("error", () => {
      failed = true;
    });
    // Its end of the pipe closed: it is gone, and its exit replaces it.
    current.stdin?.on("error", () => {});
    current.on("exit", () => {
      if (watchdog !== current) return;
      watchdog = undefined;
      if (failed || restarts >= MAX_RESTARTS) {
        failed = true;
        return;
      }
      restarts++;
      start();
    });
    // It must not keep agentry alive.
    current.unref();
  };
  return {
    start,
    watch: (pgid) => {
      groups.add(pgid);
      // A watchdog started now gets every group, this one included, as its arguments.
      if (watchdog === undefined) start();
      else tell(`+${pgid}`);
    },
    release: (pgid) => {
      groups.delete(pgid);
      tell(`-${pgid}`);
    },
  };
}

/** The supervisor of this process's commands. */
export const processSupervisor: ProcessSupervisor = createProcessSupervisor();
