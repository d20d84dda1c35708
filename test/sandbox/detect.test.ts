import { existsSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { BUBBLEWRAP, commandPath, describeWith } from "../support/components.ts";
import { tempDir } from "../support/temp-dir.ts";

/** A folder to use as PATH holding a `bwrap` made of `body` (a shell script's lines). */
async function fakeBwrap(body: string): Promise<string> {
  const bin = await tempDir("agentry-detect-");
  await writeFile(join(bin, "bwrap"), `#!/bin/sh\n${body}\n`);
  await chmod(join(bin, "bwrap"), 0o755);
  return bin;
}

describe("detectSandbox on a platform without bubblewrap", () => {
  it("macOS: Seatbelt's sandbox-exec when it is there, else why not", async () => {
    const found = await detectSandbox({ platform: "darwin" });
    if (existsSync("/usr/bin/sandbox-exec"))
      expect(found).toEqual({
        available: true,
        backend: { kind: "seatbelt", path: "/usr/bin/sandbox-exec" },
      });
    else
      expect(found).toEqual({
        available: false,
        reason: "sandbox-exec was not found",
        hint: "It ships with macOS; check /usr/bin.",
      });
  });

  it("another platform has none, and is told where agentry has one", async () => {
    expect(await detectSandbox({ platform: "win32" })).toEqual({
      available: false,
      reason: "there is no OS sandbox for win32",
      hint: expect.stringContaining("WSL 2"),
    });
  });

  it("Linux without bwrap on the PATH: not installed, and how to install it", async () => {
    const empty = await tempDir("agentry-detect-");
    expect(await detectSandbox({ platform: "linux", path: `${empty}::` })).toEqual({
      available: false,
      reason: "bubblewrap (bwrap) is not installed",
      hint: expect.stringContaining("sudo apt-get install bubblewrap"),
    });
  });
});

describeWith(BUBBLEWRAP, "detectSandbox on Linux probes bubblewrap by running it", () => {
  const real = commandPath(BUBBLEWRAP);

  it("the real bwrap of this machine works, with user namespaces closed to the command", async () => {
    const bin = await fakeBwrap(`exec ${real} "$@"`);
    expect(await detectSandbox({ platform: "linux", path: `:${bin}` })).toEqual({
      available: true,
      backend: { kind: "bwrap", path: join(bin, "bwrap"), disableUserns: true },
    });
  });

  it("an older bwrap without --disable-userns is used without it", async () => {
    const bin = await fakeBwrap(
      `for arg in "$@"; do [ "$arg" = --disable-userns ] && { echo "bwrap: Unknown option --disable-userns" >&2; exit 1; }; done\nexec ${real} "$@"`,
    );
    expect(await detectSandbox({ platform: "linux", path: bin })).toEqual({
      available: true,
      backend: { kind: "bwrap", path: join(bin, "bwrap"), disableUserns: false },
    });
  });

  it("a bwrap that cannot make its namespaces: unavailable, with what it said", async () => {
    const bin = await fakeBwrap(`echo "bwrap: setting up uid map: Permission denied" >&2; exit 1`);
    const found = await detectSandbox({ platform: "linux", path: bin });
    expect(found).toMatchObject({
      available: false,
      reason: "bubblewrap cannot create its namespaces here: bwrap: setting up uid map: Permission denied",
    });
    const silent = await fakeBwrap("exit 1");
    const quiet = await detectSandbox({ platform: "linux", path: silent });
    expect(quiet.available === false && quiet.reason).toMatch(
      /^bubblewrap cannot create its namespaces here: Command failed: .*bwrap/,
    );
  });

  it("a bwrap that never answers is given up on: unavailable, not a start that hangs", async () => {
    const bin = await fakeBwrap("exec sleep 600");
    const found = await detectSandbox({ platform: "linux", path: bin });
    expect(found.available).toBe(false);
  }, 60_000);
});
