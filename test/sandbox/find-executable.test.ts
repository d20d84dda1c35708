import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { findExecutable } from "../../src/sandbox/find-executable.ts";
import { tempDir } from "../support/temp-dir.ts";

let dir: string;
beforeEach(async () => {
  dir = await tempDir("agentry-find-executable-");
});

describe("findExecutable", () => {
  it("finds a name on the path as exec would: the first executable regular file", async () => {
    const [first, second, third] = ["a", "b", "c"].map((name) => join(dir, name));
    for (const folder of [first, second, third]) await mkdir(folder as string);
    // In `a` the name is a folder, in `b` a file that is not executable: both are passed over.
    await mkdir(join(first as string, "tool"));
    await writeFile(join(second as string, "tool"), "#!/bin/sh\n");
    await writeFile(join(third as string, "tool"), "#!/bin/sh\n");
    await chmod(join(third as string, "tool"), 0o755);
    expect(findExecutable("tool", dir, [first, second, third].join(":"))).toBe(join(third as string, "tool"));
    expect(findExecutable("tool", dir, [first, second].join(":"))).toBeUndefined();
    expect(findExecutable("tool", dir, "")).toBeUndefined();
  });

  it("takes a name with a slash as a path, against the working folder", async () => {
    await mkdir(join(dir, "bin"));
    await writeFile(join(dir, "bin", "run"), "#!/bin/sh\n");
    await chmod(join(dir, "bin", "run"), 0o755);
    expect(findExecutable("./bin/run", dir, "/usr/bin")).toBe(join(dir, "bin", "run"));
    expect(findExecutable(join(dir, "bin", "run"), "/", "")).toBe(join(dir, "bin", "run"));
    // Not searched on the path: only where it says.
    expect(findExecutable("bin/run", "/", dir)).toBeUndefined();
  });

  it("never takes an empty entry of the path for the working folder (a program planted there is not run)", async () => {
    await writeFile(join(dir, "tool"), "#!/bin/sh\n");
    await chmod(join(dir, "tool"), 0o755);
    for (const path of ["", ":", "/nowhere::/also-nowhere", "/nowhere:"])
      expect(findExecutable("tool", dir, path)).toBeUndefined();
  });
});
