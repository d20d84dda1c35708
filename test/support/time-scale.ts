import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";

/** Set it to choose the scale by hand; the suite's config sets it for its workers and their children. */
export const TIME_SCALE_ENV = "AGENTRY_TEST_TIME_SCALE";

/**
 * Above this a test is more likely hung than slow: a 20 s test bound already becomes 400 s (a 2-core
 * machine at load 40). Set `AGENTRY_TEST_TIME_SCALE` by hand to go further.
 */
const MACHINE_SCALE_CAP = 20;

/** How the run's scale was chosen, for the line the run prints. */
export interface TimeScale {
  scale: number;
  source: string;
}

/**
 * The scale the machine's load calls for: 1 + 2 × (load ÷ cores), the load as `machineLoad` reads it. A process competing
 * with `load` busy ones for `cores` cores gets about `cores ÷ (load + cores)` of the CPU it gets on a
 * quiet machine; a test's waits stretch about twice as much, each of its steps waiting for a slice in
 * several processes in turn (the test, a CLI, its server): on 2 cores at load 28, CLI tests took 29 and
 * 66 times as long as on a quiet machine. The load may also grow after the scale is chosen. Rounded up
 * to a tenth, capped at 20.
 */
export function machineTimeScale(load = loadavg()[0] ?? 0, cores = availableParallelism()): number {
  const scale = 1 + (2 * load) / Math.max(1, cores);
  return Math.min(MACHINE_SCALE_CAP, Math.ceil(scale * 10) / 10);
}

/** The scale `AGENTRY_TEST_TIME_SCALE` asks for; a clear error for a value that is not a positive number. */
export function parseTimeScale(value: string): number {
  const scale = Number(value);
  if (value.trim() === "" || !Number.isFinite(scale) || scale <= 0)
    throw new Error(
      `${TIME_SCALE_ENV} must be a positive number (2 doubles every test bound), not ${JSON.stringify(value)}`,
    );
  return scale;
}

/** The run's scale: the one set in the environment, else the machine's, with where it came from. */
export function resolveTimeScale(env: NodeJS.ProcessEnv = process.env): TimeScale {
  const set = env[TIME_SCALE_ENV];
  if (set !== undefined) return { scale: parseTimeScale(set), source: `${TIME_SCALE_ENV}=${set}` };
  const { load, what } = machineLoad();
  const cores = availableParallelism();
  return {
    scale: machineTimeScale(load, cores),
    source: `${what} ${load.toFixed(2)} on ${cores} cores; set ${TIME_SCALE_ENV} to choose`,
  };
}

const LOAD_SAMPLES = 20;
const LOAD_SAMPLE_MS = 10;

/**
 * How busy the machine is. On Linux, the threads ready to run now (`/proc/loadavg`'s running count,
 * this one left out, averaged over 200 ms) tell a hog or an idle machine at once, where the 1-minute
 * load average lags a minute behind: right after a run or a hog ended it still says busy on an idle
 * machine, and would stretch every wait for nothing. But a machine busy in bursts can look idle for
 * 200 ms. So: while the load average falls (below the 5-minute one) the machine is calming down and
 * the present counts; otherwise the larger of the two. Elsewhere, the 1-minute average.
 */
export function machineLoad(): { load: number; what: string } {
  try {
    const pause = new Int32Array(new SharedArrayBuffer(4));
    let running = 0;
    for (let i = 0; i < LOAD_SAMPLES; i++) {
      const field = readFileSync("/proc/loadavg", "utf8").split(" ")[3] ?? "";
      const ready = Number(field.split("/")[0]);
      if (!Number.isFinite(ready)) throw new Error(`unexpected /proc/loadavg field ${field}`);
      running += Math.max(0, ready - 1);
      Atomics.wait(pause, 0, 0, LOAD_SAMPLE_MS);
    }
    const now = running / LOAD_SAMPLES;
    const [minute = 0, fiveMinutes = 0] = loadavg();
    if (minute < fiveMinutes || now >= minute) return { load: now, what: "threads ready to run" };
    return { load: minute, what: "load average" };
  } catch {
    return { load: loadavg()[0] ?? 0, what: "load average" };
  }
}

const RUN_TIME_SCALE = Symbol.for("agentry.test.timeScale");

/**
 * The run's scale, chosen once in the main process (`suite-timing.ts`) and kept there for its reporter;
 * `AGENTRY_TEST_TIME_SCALE` carries it to the workers.
 */
export function chooseRunTimeScale(): TimeScale {
  const chosen = (Reflect.get(globalThis, RUN_TIME_SCALE) as TimeScale | undefined) ?? resolveTimeScale();
  process.env[TIME_SCALE_ENV] = String(chosen.scale);
  Reflect.set(globalThis, RUN_TIME_SCALE, chosen);
  return chosen;
}

/** The scale `chooseRunTimeScale` chose in this process, else the one the environment gives. */
export function runTimeScale(): TimeScale {
  return (Reflect.get(globalThis, RUN_TIME_SCALE) as TimeScale | undefined) ?? resolveTimeScale();
}

let resolved: number | undefined;

/**
 * The factor every time bound of the suite is multiplied by (test timeouts, hang guards, the stall,
 * lock and lease settings tests give the code): `AGENTRY_TEST_TIME_SCALE`, which the suite's config
 * sets once per run from the machine's load, so a slow machine waits longer instead of failing.
 */
export function timeScale(): number {
  resolved ??= resolveTimeScale().scale;
  return resolved;
}

/** `ms` stretched by the run's time scale (whole milliseconds). */
export function scaled(ms: number): number {
  return Math.round(ms * timeScale());
}
