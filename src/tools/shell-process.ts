import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import type { ExecOptions, ExecResult } from "./operations.ts";
import { isProcessGroupAlive, signalProcessGroup } from "./process-group.ts";

/** How long a killed process group gets to exit after SIGTERM before SIGKILL. */
export const KILL_GRACE_MS = 1_000;
/** How long to keep reading after the shell exits: a background grandchild may hold the pipe open forever. */
const DRAIN_MS = 100;
/**
 * A memory guard, not truncation for the model (the loop does that): a runaway `yes` must not take the
 * process down. Far above any limit the loop applies.
 */
export const MAX_CAPTURED_CHARS = 16 * 1024 * 1024;

let cachedShell: string | undefined;

/** bash from PATH (or /bin/bash), else /bin/sh. */
export function findShell(): string {
  if (cachedShell !== undefined) return cachedShell;
  const dirs = (process.env.PATH ?? "").split(delimiter).filter((dir) => dir !== "");
  const bash = [...dirs.map((dir) => join(dir, "bash")), "/bin/bash"].find((candidate) =>
    existsSync(candidate),
  );
  cachedShell = bash ?? "/bin/sh";
  return cachedShell;
}

/**
 * Runs `command` with `shell -c` as the leader of a new process group, so that abort and timeout can kill
 * everything it started (pipelines, `sleep` children, test runners' workers), not only the shell.
 */
export function runShellCommand(command: string, options: ExecOptions): Promise<ExecResult> {
  if (options.signal.aborted) {
    return Promise.resolve({ exitCode: null, output: "", timedOut: false, aborted: true });
  }
  return new Promise((resolve, reject) => {
    const child = spawn(findShell(), ["-c", command], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let capped = false;
    let timedOut = false;
    let aborted = false;
    let killing = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const append = (text: string): void => {
      if (text === "" || capped) return;
      if (output.length + text.length > MAX_CAPTURED_CHARS) {
        capped = true;
        const note = `\n[output exceeded ${MAX_CAPTURED_CHARS} characters; the rest was discarded]\n`;
        output += text.slice(0, MAX_CAPTURED_CHARS - output.length) + note;
        options.onOutput?.(note);
        return;
      }
      output += text;
      options.onOutput?.(text);
    };
    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder("utf8");
      stream.on("data", (chunk: Buffer) => append(decoder.write(chunk)));
      stream.on("end", () => append(decoder.end()));
    }

    const signalGroup = (signal: NodeJS.Signals | 0): boolean =>
      child.pid !== undefined && signalProcessGroup(child.pid, signal);
    const terminate = (): void => {
      if (killing) return;
      killing = true;
      signalGroup("SIGTERM");
      timers.push(setTimeout(() => signalGroup("SIGKILL"), KILL_GRACE_MS));
    };
    const onAbort = (): void => {
      aborted = true;
      terminate();
    };
    options.signal.addEventListener("abort", onAbort, { once: true });
    if (Number.isFinite(options.timeoutMs) && options.timeoutMs > 0) {
      timers.push(
        setTimeout(() => {
          timedOut = true;
          terminate();
        }, options.timeoutMs),
      );
    }

    const finish = (exitCode: number | null): void => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener("abort", onAbort);
      for (const timer of timers) clearTimeout(timer);
      // A grandchild that inherited the pipe must not keep us (or the event loop) waiting.
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ exitCode, output, timedOut, aborted });
    };

    child.on("error", (error) => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener("abort", onAbort);
      for (const timer of timers) clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      // While killing, the exit handler decides when the group is gone.
      if (!killing) finish(code);
    });
    child.on("exit", (code) => {
      const drain = (): void => {
        timers.push(setTimeout(() => finish(code), DRAIN_MS));
      };
      if (!killing) return drain();
      // The shell is gone but members of its group may still be handling SIGTERM: wait for the group to
      // empty (or for the SIGKILL deadline) so that when we return, nothing we started is left running.
      const started = Date.now();
      const poll = async (): Promise<void> => {
        if (settled) return;
        if (child.pid === undefined || !(await isProcessGroupAlive(child.pid))) return drain();
        if (Date.now() - started >= KILL_GRACE_MS) {
          signalGroup("SIGKILL");
          return drain();
        }
        timers.push(setTimeout(() => void poll(), 25));
      };
      void poll();
    });
  });
}
