import type { InlineConfig } from "vitest/node";
import { chooseRunTimeScale } from "./time-scale.ts";
import { TimeScaleReporter } from "./time-scale-reporter.ts";

/** A test or hook that has not ended after this (at scale 1) is hung, not slow. */
const TEST_BOUND_MS = 20_000;
/** `expect.poll` waits for a state the test caused; vitest's 1 s default measures the machine. */
const POLL_BOUND_MS = 5_000;

/**
 * The time settings of a vitest config, all from the run's one time scale, and the reporter that
 * prints it. The scale is chosen once per run, here (`chooseRunTimeScale`), and put in the environment
 * so the workers, and the processes they start, use the same one. Shared by the suite's config and the
 * fixtures' that test it.
 */
export function suiteTiming(): Pick<
  InlineConfig,
  "testTimeout" | "hookTimeout" | "teardownTimeout" | "expect"
> & {
  reporters: ["default", TimeScaleReporter];
} {
  const timeScale = chooseRunTimeScale();
  const scaled = (ms: number) => Math.round(ms * timeScale.scale);
  return {
    testTimeout: scaled(TEST_BOUND_MS),
    hookTimeout: scaled(TEST_BOUND_MS),
    teardownTimeout: scaled(10_000),
    expect: { poll: { timeout: scaled(POLL_BOUND_MS) } },
    reporters: ["default", new TimeScaleReporter(timeScale)],
  };
}
