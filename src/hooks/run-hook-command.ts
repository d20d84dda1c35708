import { StringDecoder } from "node:string_decoder";
import { signalProcessGroup } from "../tools/process/process-group.ts";
import { KILL_GRACE_MS } from "../tools/process/process-run.ts";
import { processSupervisor } from "../tools/process/process-supervisor.ts";
import { findShell } from "../tools/process/shell-process.ts";
import { spawnWatched } from "../tools/process/watched-spawn.ts";

/** What a hook command did. */
export interface CommandRun {
  /** null when it was killed (timeout, abort) or could not start. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  /** Why it could not start (no shell …). */
  spawnError?: string;
  durationMs: number;
}

export interface CommandOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The event's JSON, written to the command's stdin. */
  stdin: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A hook's output beyond this is dropped (a guard, not a limit anyone should reach). */
const MAX_OUTPUT_CHARS = 1024 * 1024;
/** How long to keep reading once the command exited: what it left running may still hold the pipes. */
const DRAIN_MS = 50;

/**
 * Runs one hook command as Claude Code does: `bash -c <command>` (sh without bash), as the user — not in
 * the agent's OS sandbox —, in the workspace, the event as JSON on stdin. At its timeout or on abort its
 * whole process group gets SIGTERM, then SIGKILL; a command that exits on its own may leave background
 * work running (a notification sound …), as it may under Claude Code. Never rejects.
 */
export function runHookCommand(command: string, options: CommandOptions): Promise<CommandRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const shell = findShell();
    // stdin is a socket pair (Node's pipes), which bash takes for a remote login and would read
    // ~/.bashrc for: `--norc` keeps a hook's shell as plain as `bash -c` from a terminal.
    const args = shell.endsWith("bash") ? ["--norc", "-c", command] : ["-c", command];
    const child = spawnWatched(shell, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stdin = child.stdin!;
    const stdout = child.stdout!;
    const stderr = child.stderr!;
    const pgid = child.pid;
    const out = { stdout: "", stderr: "" };
    let timedOut = false;
    let aborted = false;
    let killing = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const collect = (stream: NodeJS.ReadableStream, key: "stdout" | "stderr") => {
      const decoder = new StringDecoder("utf8");
      const add = (text: string) => {
        if (out[key].length < MAX_OUTPUT_CHARS) out[key] += text.slice(0, MAX_OUTPUT_CHARS - out[key].length);
      };
      stream.on("data", (chunk: Buffer) => add(decoder.write(chunk)));
      stream.on("end", () => add(decoder.end()));
    };
    collect(stdout, "stdout");
    collect(stderr, "stderr");
    // A command that never reads its stdin closes the pipe early: that is no failure of the hook.
    stdin.on("error", () => {});
    stdin.end(options.stdin);

    const terminate = () => {
      if (killing || pgid === undefined) return;
      killing = true;
      signalProcessGroup(pgid, "SIGTERM");
      timers.push(setTimeout(() => signalProcessGroup(pgid, "SIGKILL"), KILL_GRACE_MS));
    };
    const onAbort = () => {
      aborted = true;
      terminate();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    timers.push(
      setTimeout(() => {
        timedOut = true;
        terminate();
      }, options.timeoutMs),
    );
    const finish = (exitCode: number | null, spawnError?: string) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener("abort", onAbort);
      for (const timer of timers) clearTimeout(timer);
      stdout.destroy();
      stderr.destroy();
      if (pgid !== undefined) processSupervisor.release(pgid);
      resolve({
        exitCode: timedOut || aborted ? null : exitCode,
        ...out,
        timedOut,
        aborted,
        ...(spawnError === undefined ? {} : { spawnError }),
        durationMs: Date.now() - started,
      });
    };
    child.on("error", (error) => finish(null, error.message));
    child.on("close", (code) => finish(code));
    child.on("exit", (code) => {
      timers.push(setTimeout(() => finish(code), DRAIN_MS));
    });
  });
}
