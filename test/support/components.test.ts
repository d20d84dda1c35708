import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scaled } from "./time-scale.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const VITEST = fileURLToPath(new URL("../../node_modules/vitest/vitest.mjs", import.meta.url));

/** Runs the fixture file (a test needing a command no machine has) in its own vitest. */
function runFixture(ci: boolean) {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1" };
  if (ci) env.CI = "true";
  const result = spawnSync(
    process.execPath,
    [VITEST, "run", "--config", `${FIXTURES}vitest.config.ts`, "missing-component.fixture.ts"],
    { cwd: FIXTURES, env, encoding: "utf8", timeout: scaled(60_000) },
  );
  return { code: result.status, output: result.stdout + result.stderr };
}

describe("a test whose component is missing", () => {
  it("fails under CI=true with a message that names the package", () => {
    const { code, output } = runFixture(true);
    expect(code, output).toBe(1);
    expect(output).toContain("needs agentry-test-package");
    expect(output).toContain(
      "agentry-no-such-command is not on PATH: install the Debian package agentry-test-package",
    );
    expect(output).toMatch(/1 failed \| 1 passed/);
    // Its one failure is not a timeout: nothing is said about a loaded machine.
    expect(output).not.toContain("may be too loaded");
  });

  it("is skipped, visibly, on a developer's machine", () => {
    const { code, output } = runFixture(false);
    expect(code, output).toBe(0);
    expect(output).toMatch(/1 passed \| 1 skipped/);
  });
});
