import { type ChildProcess, type IOType, spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { findExecutable } from "../../sandbox/find-executable.ts";
import { type ProcessSupervisor, processSupervisor } from "./process-supervisor.ts";

/**
 * The gate a watched process starts behind: a shell that waits for one line on fd 3, closes it and
 * becomes the program (`exec` keeps its pid, so its process group is the one agentry registered). If
 * agentry dies before it opens the gate, the read meets the end of the pipe and nothing runs.
 */
const GATE = 'IFS= read -r _ <&3 || exit 125; exec 3<&-; exec "$@"';

export interface WatchedSpawnOptions {
  cwd?: string;
  env: NodeJS.ProcessEnv;
  /** stdin, stdout and stderr. */
  stdio: readonly [IOType, IOType, IOType];
}

/**
 * Spawns `file` with `args` as the leader of a new process group that the supervisor watches before
 * anything in the group runs. Registering after the spawn would leave a window — short, but long on a
 * loaded machine — in which the program runs (and starts children) while agentry, killed then, has
 * told its watchdog nothing. The caller releases the group when it has ended.
 *
 * A program that is not found or not executable is spawned as it is, so that the caller gets Node's
 * own error (`ENOENT`, `EACCES`) and its clear message (it is watched all the same, should it start).
 */
export function spawnWatched(
  file: string,
  args: readonly string[],
  options: WatchedSpawnOptions,
  supervisor: ProcessSupervisor = processSupervisor,
): ChildProcess {
  const cwd = options.cwd ?? process.cwd();
  const program = findExecutable(file, cwd, options.env.PATH ?? "");
  const spawnOptions = { cwd, env: options.env, detached: true, windowsHide: true } as const;
  supervisor.start();
  if (program === undefined) {
    const child = spawn(file, args, { ...spawnOptions, stdio: [...options.stdio] });
    if (child.pid !== undefined) supervisor.watch(child.pid);
    return child;
  }
  const child = spawn("/bin/sh", ["-c", GATE, "agentry-gate", program, ...args], {
    ...spawnOptions,
    stdio: [...options.stdio, "pipe"],
  });
  const gate = child.stdio[3] as Writable;
  // The gate closed early: the child has died already, which its own events report.
  gate.on("error", () => {});
  if (child.pid !== undefined) supervisor.watch(child.pid);
  gate.end("\n");
  return child;
}
