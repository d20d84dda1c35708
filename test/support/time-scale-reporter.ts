import { availableParallelism, loadavg } from "node:os";
import type { SerializedError } from "vitest";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { machineTimeScale, runTimeScale, TIME_SCALE_ENV, type TimeScale } from "./time-scale.ts";

/**
 * Prints the run's time scale when it starts and, when most failures are timeouts, says at the end
 * that the machine may be too loaded and how to rerun with a larger scale: a newcomer on a busy
 * machine should not take a slow run for a broken checkout.
 */
export class TimeScaleReporter implements Reporter {
  readonly #timeScale: TimeScale;
  #log: (line: string) => void = (line) => console.log(line);

  /** Named by path (`--reporter=./test/support/time-scale-reporter.ts`), vitest passes `{}`: the run's. */
  constructor(timeScale?: TimeScale | Record<string, never>) {
    this.#timeScale = isTimeScale(timeScale) ? timeScale : runTimeScale();
  }

  onInit(vitest: Vitest): void {
    this.#log = (line) => vitest.logger.log(line);
    this.#log(`time scale ${this.#timeScale.scale} (${this.#timeScale.source})`);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const failures = failuresOf(testModules);
    const timeouts = failures.filter((errors) => errors.some(isTimeout)).length;
    if (failures.length === 0 || timeouts * 2 <= failures.length) return;
    this.#log(loadedMachineAdvice(timeouts, failures.length, this.#timeScale.scale));
  }
}

function isTimeScale(value: unknown): value is TimeScale {
  return typeof value === "object" && value !== null && "scale" in value && "source" in value;
}

/** The advice printed when most of a run's failures are timeouts. */
export function loadedMachineAdvice(timeouts: number, failures: number, scale: number): string {
  const cores = availableParallelism();
  const load = loadavg()[0] ?? 0;
  const larger = Math.max(Math.ceil(scale * 2), Math.ceil(machineTimeScale(load, cores)));
  return [
    "",
    `${timeouts} of ${failures} failures are timeouts: the machine may be too loaded for the time scale ${scale}`,
    `(load average now ${load.toFixed(2)} on ${cores} cores). Rerun with a larger scale, which stretches every`,
    `test bound: ${TIME_SCALE_ENV}=${larger} npm test`,
  ].join("\n");
}

/** Each failed test, and each module or suite that failed outside a test (a hook, an import), by its errors. */
function failuresOf(testModules: ReadonlyArray<TestModule>): ReadonlyArray<SerializedError>[] {
  const failures: ReadonlyArray<SerializedError>[] = [];
  for (const module of testModules) {
    for (const suite of [module, ...module.children.allSuites()])
      if (suite.errors().length > 0) failures.push(suite.errors());
    for (const test of module.children.allTests("failed")) {
      const result = test.result();
      if (result.state === "failed") failures.push(result.errors);
    }
  }
  return failures;
}

/** Vitest's own test and hook timeouts, and the hang guards of `test/support` ("timed out after …"). */
function isTimeout(error: SerializedError): boolean {
  return (
    error.name === "TestTimeoutError" ||
    error.name === "HookTimeoutError" ||
    /\btimed out\b/i.test(String(error.message))
  );
}

export default TimeScaleReporter;
