import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  machineLoad,
  machineTimeScale,
  parseTimeScale,
  resolveTimeScale,
  TIME_SCALE_ENV,
} from "./time-scale.ts";

describe("the suite's time scale", () => {
  it("is 1 on an idle machine and grows with twice the load per core, rounded up to a tenth", () => {
    expect(machineTimeScale(0, 2)).toBe(1);
    expect(machineTimeScale(1, 2)).toBe(2);
    // A CPU hog at four times the cores: a process gets a fifth of its CPU, a test's waits stretch 9-fold.
    expect(machineTimeScale(8, 2)).toBe(9);
    expect(machineTimeScale(8.01, 2)).toBe(9.1);
    expect(machineTimeScale(8, 16)).toBe(2);
  });

  it("stops growing at 20, where a test is more likely hung than slow", () => {
    expect(machineTimeScale(38, 2)).toBe(20);
    expect(machineTimeScale(80, 2)).toBe(20);
  });

  it("is the one set in AGENTRY_TEST_TIME_SCALE, which says so", () => {
    expect(resolveTimeScale({ [TIME_SCALE_ENV]: "3" })).toEqual({ scale: 3, source: `${TIME_SCALE_ENV}=3` });
    expect(resolveTimeScale({ [TIME_SCALE_ENV]: "0.5" }).scale).toBe(0.5);
    expect(resolveTimeScale({}).source).toMatch(
      /^(threads ready to run|load average) \d+\.\d\d on \d+ cores; set AGENTRY_TEST_TIME_SCALE to choose$/,
    );
  });

  it("reads the load of now when the minute's average lags: two busy processes count as two threads ready to run", async () => {
    const hogs = [0, 1].map(() =>
      spawn(process.execPath, ["-e", "process.stdout.write('busy\\n'); for (;;);"], {
        stdio: ["ignore", "pipe", "ignore"],
      }),
    );
    onTestFinished(() => {
      for (const hog of hogs) hog.kill("SIGKILL");
    });
    await Promise.all(hogs.map((hog) => once(hog.stdout, "data")));
    // Each sample sees both hogs ready (or running); the load average, when it is the one taken, is
    // larger still; other work of the machine only adds to either.
    expect(machineLoad().load).toBeGreaterThanOrEqual(process.platform === "linux" ? 2 : 0);
  });

  it("refuses a value that is not a positive number, saying what it must be", () => {
    for (const value of ["fast", "", "0", "-2", "Infinity"])
      expect(() => parseTimeScale(value)).toThrow(
        `AGENTRY_TEST_TIME_SCALE must be a positive number (2 doubles every test bound), not ${JSON.stringify(value)}`,
      );
  });

  it("is set for this run's workers by the suite's config", () => {
    expect(parseTimeScale(process.env[TIME_SCALE_ENV] ?? "")).toBeGreaterThan(0);
  });
});
