import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { nodeOperations as ops } from "../../src/tools/node-operations.ts";
import { isRunning } from "../support/processes.ts";
import { tempDir } from "../support/temp-dir.ts";
import { scaled } from "../support/time-scale.ts";

let dir: string;
beforeEach(async () => {
  dir = await tempDir("agentry-ops-");
});

/** A shell step that waits until the test creates `name` in the command's folder. */
const awaitFile = (name: string) => `while [ ! -e ${name} ]; do sleep 0.01; done`;

const exec = (command: string, options: { timeoutMs?: number; onOutput?: (chunk: string) => void } = {}) =>
  ops.exec(command, {
    cwd: dir,
    signal: new AbortController().signal,
    timeoutMs: options.timeoutMs ?? scaled(10_000),
    ...options,
  });

describe("nodeOperations files", () => {
  it("writes with parent directories and reads back", async () => {
    await ops.writeFile(join(dir, "a/b/c.txt"), "hello");
    expect((await ops.readFile(join(dir, "a/b/c.txt"))).toString()).toBe("hello");
    await ops.mkdir(join(dir, "x/y"));
    expect((await ops.stat(join(dir, "x/y")))?.isDirectory).toBe(true);
  });

  it("stat follows symlinks, lstat does not, and both return undefined for missing paths", async () => {
    await writeFile(join(dir, "f"), "12345");
    await symlink(join(dir, "f"), join(dir, "link"));
    expect(await ops.stat(join(dir, "link"))).toMatchObject({ isFile: true, isSymbolicLink: false, size: 5 });
    expect(await ops.lstat(join(dir, "link"))).toMatchObject({ isFile: false, isSymbolicLink: true });
    expect(await ops.stat(join(dir, "missing"))).toBeUndefined();
    expect(await ops.lstat(join(dir, "f", "under-a-file"))).toBeUndefined();
    await expect(ops.realpath(join(dir, "missing"))).rejects.toThrow(/ENOENT/);
    expect(await ops.realpath(join(dir, "link"))).toBe(join(dir, "f"));
  });

  it("lists directory entries with their types", async () => {
    await mkdir(join(dir, "sub"));
    await writeFile(join(dir, "file"), "");
    await symlink(join(dir, "sub"), join(dir, "ln"));
    const entries = (await ops.readdir(dir)).sort((a, b) => a.name.localeCompare(b.name));
    expect(entries).toEqual([
      { name: "file", isFile: true, isDirectory: false, isSymbolicLink: false },
      { name: "ln", isFile: false, isDirectory: false, isSymbolicLink: true },
      { name: "sub", isFile: false, isDirectory: true, isSymbolicLink: false },
    ]);
  });
});

describe("nodeOperations.exec", () => {
  it("returns combined output in arrival order and the exit code", async () => {
    // Each line is written only once the one before has arrived, so arrival order is the order written.
    const result = await exec(
      `echo out; ${awaitFile("1")}; echo err >&2; ${awaitFile("2")}; echo out2; exit 3`,
      {
        onOutput: (chunk) => writeFile(join(dir, chunk === "out\n" ? "1" : "2"), ""),
      },
    );
    expect(result).toEqual({ exitCode: 3, output: "out\nerr\nout2\n", timedOut: false, aborted: false });
  });

  it("runs in cwd with extra environment variables on top of the inherited ones", async () => {
    const result = await ops.exec('pwd; echo "$EXTRA"; test -n "$PATH" && echo has-path', {
      cwd: dir,
      signal: new AbortController().signal,
      timeoutMs: 10_000,
      env: { EXTRA: "yes" },
    });
    expect(result.output).toBe(`${dir}\nyes\nhas-path\n`);
  });

  it("streams output while the command runs", async () => {
    const arrivals: string[] = [];
    // The command goes on only once its first line has arrived: buffered output would never arrive, and
    // the command time out.
    const result = await exec(`echo first; ${awaitFile("go")}; echo second`, {
      timeoutMs: scaled(10_000),
      onOutput: (chunk) => {
        arrivals.push(chunk);
        void writeFile(join(dir, "go"), "");
      },
    });
    expect(result.timedOut).toBe(false);
    expect(arrivals).toEqual(["first\n", "second\n"]);
  });

  it("decodes a UTF-8 character split across writes", async () => {
    expect((await exec("printf '\\342'; sleep 0.1; printf '\\234\\223'")).output).toBe("✓");
  });

  it("closes stdin so a command waiting for input ends at once", async () => {
    const result = await exec("cat; read line; echo status=$?", { timeoutMs: 5000 });
    expect(result).toMatchObject({ output: "status=1\n", timedOut: false });
  });

  it("ends what a command leaves in the background when it returns, without waiting for it", async () => {
    // Longer than any test bound (and than exec's timeout): waiting for it would fail the test.
    const result = await exec(`sleep 600 & echo $! > ${join(dir, "pid")}; echo started`);
    expect(result).toMatchObject({ exitCode: 0, output: "started\n" });
    const pid = Number(await readFile(join(dir, "pid"), "utf8"));
    // Killed by the time exec resolves (a zombie at most, which isRunning does not count).
    expect(isRunning(pid)).toBe(false);
  });

  it("ends a background process that ignores SIGTERM too, and one that closed its output", async () => {
    const result = await exec(
      `(trap '' TERM; exec sleep 30) > /dev/null 2>&1 & echo $! > ${join(dir, "pid")}; echo started`,
    );
    expect(result).toMatchObject({ exitCode: 0, output: "started\n" });
    const pid = Number(await readFile(join(dir, "pid"), "utf8"));
    expect(isRunning(pid)).toBe(false);
  });

  it("does not start anything when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await ops.exec(`touch ${join(dir, "ran")}`, {
      cwd: dir,
      signal: controller.signal,
      timeoutMs: 1000,
    });
    expect(result).toEqual({ exitCode: null, output: "", timedOut: false, aborted: true });
    expect(await ops.stat(join(dir, "ran"))).toBeUndefined();
  });

  it("rejects when the working directory does not exist", async () => {
    await expect(
      ops.exec("true", { cwd: join(dir, "missing"), signal: new AbortController().signal, timeoutMs: 1000 }),
    ).rejects.toThrow(/ENOENT/);
  });
});
