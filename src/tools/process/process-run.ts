import { StringDecoder } from "node:string_decoder";
import type { ExecOptions, ExecResult } from "../operations.ts";
import { isProcessGroupAlive, signalProcessGroup } from "./process-group.ts";
import { processSupervisor } from "./process-supervisor.ts";
import { spawnWatched } from "./watched-spawn.ts";

/** How long a killed process group gets to exit after SIGTERM before SIGKILL. */
export const KILL_GRACE_MS = 1_000;
/** How long to keep reading after the group is gone: a process that left the group may hold the pipe. */
const DRAIN_MS = 100;
/**
 * A memory guard, not truncation for the model (the loop does that): a runaway `yes` must not take the
 * process down. Far above any limit the loop applies.
 */
export const MAX_CAPTURED_CHARS = 16 * 1024 * 1024;

export interface ProcessSpec {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * Runs a process as the leader of a new process group and collects its output. On abort or timeout
 * the whole group gets SIGTERM, then SIGKILL after `KILL_GRACE_MS`; when the leader exits by itself,
 * what it left running in the background gets the same, so nothing a command started outlives its
 * call. The process supervisor watches the group meanwhile, in case agentry itself dies.
 */
export function runProcessGroup(spec: ProcessSpec, options: ExecOptions): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = spawnWatched(spec.file, spec.args, {
      cwd: options.cwd,
      env: spec.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout = child.stdout!;
    const stderr = child.stderr!;
    const pgid = child.pid;
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
    for (const stream of [stdout, stderr]) {
      const decoder = new StringDecoder("utf8");
      stream.on("data", (chunk: Buffer) => append(decoder.write(chunk)));
      stream.on("end", () => append(decoder.end()));
    }

    const signalGroup = (signal: NodeJS.Signals | 0): boolean =>
      pgid !== undefined && signalProcessGroup(pgid, signal);
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

    const settle = (): void => {
      settled = true;
      options.signal.removeEventListener("abort", onAbort);
      for (const timer of timers) clearTimeout(timer);
    };
    const finish = (exitCode: number | null): void => {
      if (settled) return;
      settle();
      // A process that left the group may still hold the pipe: it must not keep us (or the event loop) waiting.
      stdout.destroy();
      stderr.destroy();
      if (pgid !== undefined) processSupervisor.release(pgid);
      resolve({ exitCode, output, timedOut, aborted });
    };

    child.on("error", (error) => {
      if (settled) return;
      settle();
      if (pgid !== undefined) processSupervisor.release(pgid);
      reject(error);
    });
    let exited = false;
    child.on("close", (code) => {
      // Closed pipes and no process left in the group (the usual end): nothing to wait for.
      if (exited && !killing && !signalGroup(0)) finish(code);
    });
    child.on("exit", (code) => {
      exited = true;
      // Whatever the leader left behind (`cmd &`) ends now; while killing, that is already under way.
      if (!killing) signalGroup("SIGTERM");
      // Wait for the group to empty (or for the SIGKILL deadline), so that when we return nothing we
      // started is left running; then give the pipes a moment to deliver the last output.
      const started = Date.now();
      const poll = async (): Promise<void> => {
        if (settled) return;
        if (pgid === undefined || !(await isProcessGroupAlive(pgid))) {
          timers.push(setTimeout(() => finish(code), DRAIN_MS));
          return;
        }
        if (Date.now() - started >= KILL_GRACE_MS) {
          signalGroup("SIGKILL");
          timers.push(setTimeout(() => finish(code), DRAIN_MS));
          return;
        }
        timers.push(setTimeout(() => void poll(), 25));
      };
      void poll();
    });
  });
}
