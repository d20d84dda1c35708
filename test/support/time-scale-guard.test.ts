import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isRunning } from "./processes.ts";
import { tempDir } from "./temp-dir.ts";
import { scaled } from "./time-scale.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const VITEST = fileURLToPath(new URL("../../node_modules/vitest/vitest.mjs", import.meta.url));

/** Runs the fixture that plants two hangs in its own vitest, at the time scale given. */
async function runPlantedHang(scale: string) {
  const pidsFile = join(await tempDir("agentry-hang-"), "pids");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    NO_COLOR: "1",
    AGENTRY_TEST_TIME_SCALE: scale,
    PLANTED_PIDS_FILE: pidsFile,
  };
  const result = spawnSync(
    process.execPath,
    [VITEST, "run", "--config", `${FIXTURES}vitest.config.ts`, "planted-hang.fixture.ts"],
    { cwd: FIXTURES, env, encoding: "utf8", timeout: scaled(60_000) },
  );
  const pids = readFileSync(pidsFile, "utf8").trim().split("\n").map(Number);
  return { code: result.status, output: result.stdout + result.stderr, pids };
}

describe("a test that waits for a child that never ends", () => {
  it("fails at its bound stretched by the time scale, and the run says the machine may be too loaded", async () => {
    // 0.05: the suite's 20 s test bound becomes 1 s, a hang guard's 10 s half a second.
    const { code, output, pids } = await runPlantedHang("0.05");

    expect(code, output).toBe(1);
    expect(output).toContain("time scale 0.05 (AGENTRY_TEST_TIME_SCALE=0.05)");
    expect(output).toContain("Test timed out in 1000ms");
    expect(output).toContain("timed out after 500 ms waiting for the child to exit");
    expect(output).toMatch(/2 failed/);
    expect(output).toContain(
      "2 of 2 failures are timeouts: the machine may be too loaded for the time scale 0.05",
    );
    expect(output).toMatch(
      /Rerun with a larger scale, which stretches every\ntest bound: AGENTRY_TEST_TIME_SCALE=\d+ npm test/,
    );
    // The planted children were ended with their tests.
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(isRunning(pid), `planted child ${pid}`).toBe(false);
  });
});
