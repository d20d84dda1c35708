import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import type { ProcessSupervisor } from "../../../src/tools/process/process-supervisor.ts";
import { spawnWatched } from "../../../src/tools/process/watched-spawn.ts";
import { isRunning, pidFrom, until } from "../../support/processes.ts";
import { tempDir } from "../../support/temp-dir.ts";

const WATCHED_SPAWN = fileURLToPath(new URL("../../../src/tools/process/watched-spawn.ts", import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await tempDir("agentry-watched-");
});

/** A supervisor that only records what it is told. */
function recordingSupervisor(): ProcessSupervisor & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    start: () => lines.push("start"),
    watch: (pgid) => lines.push(`+${pgid}`),
    release: (pgid) => lines.push(`-${pgid}`),
  };
}

function exited(child: ReturnType<typeof spawnWatched>): Promise<{ code: number | null; output: string }> {
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("spawnWatched", () => {
  it("runs the program with its arguments as the leader of a group the supervisor watches, fd 3 closed", async () => {
    const supervisor = recordingSupervisor();
    const script =
      'echo "$1 $2"; [ -e /proc/self/fd/3 ] && echo "fd 3 open" || echo "fd 3 closed"; ps -o pgid= -p $$';
    const child = spawnWatched(
      "sh",
      ["-c", script, "sh", "one", "two words"],
      { cwd: dir, env: process.env, stdio: ["ignore", "pipe", "ignore"] },
      supervisor,
    );
    const { code, output } = await exited(child);
    expect(code).toBe(0);
    const [args, fd3, pgid] = output.trim().split("\n");
    expect(args).toBe("one two words");
    expect(fd3).toBe("fd 3 closed");
    // exec kept the gate's pid: the group the supervisor was told of is the program's own.
    expect(Number(pgid)).toBe(child.pid);
    expect(supervisor.lines).toEqual(["start", `+${child.pid}`]);
  });

  it("never runs the program when agentry dies between the spawn and the watch", async () => {
    // A process that spawns a program and is SIGKILLed while telling its supervisor of the group:
    // registering after the program started would let it run unwatched.
    const marker = join(dir, "ran");
    const pidFile = join(dir, "pid");
    const script = join(dir, "dies.ts");
    await writeFile(
      script,
      `import { writeFileSync } from "node:fs";
import { spawnWatched } from ${JSON.stringify(WATCHED_SPAWN)};
const dying = {
  start() {},
  release() {},
  watch(pgid) {
    writeFileSync(${JSON.stringify(pidFile)}, String(pgid));
    process.kill(process.pid, "SIGKILL");
  },
};
spawnWatched("/bin/sh", ["-c", "echo ran > ${marker}"], { env: process.env, stdio: ["ignore", "ignore", "ignore"] }, dying);
`,
    );
    const parent = spawn(process.execPath, [script], { stdio: "ignore" });
    const signal = await new Promise((resolve) => parent.on("exit", (_code, killed) => resolve(killed)));
    expect(signal).toBe("SIGKILL");
    const program = await pidFrom(pidFile);
    expect(await until(() => !isRunning(program), 10_000)).toBe(true);
    expect(await readFile(marker, "utf8").catch(() => "never ran")).toBe("never ran");
  });

  it("leaves a program that is not there to Node's own error", async () => {
    const supervisor = recordingSupervisor();
    const child = spawnWatched(
      "agentry-no-such-program",
      [],
      { env: process.env, stdio: ["ignore", "pipe", "pipe"] },
      supervisor,
    );
    await expect(exited(child)).rejects.toMatchObject({ code: "ENOENT" });
  });
});
