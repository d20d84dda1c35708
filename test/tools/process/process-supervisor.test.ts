import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { processesRunning, until, waitFor } from "../../support/processes.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { watchdogsOf } from "../../support/watchdogs.ts";

const WATCHED_SPAWN = fileURLToPath(new URL("../../../src/tools/process/watched-spawn.ts", import.meta.url));

let sleeps: string[] = [];
afterEach(() => {
  for (const line of sleeps.splice(0)) for (const pid of processesRunning(line)) process.kill(pid, "SIGKILL");
});

it("a watchdog killed while agentry runs is replaced: agentry's SIGKILL still ends its commands", async () => {
  const dir = await tempDir("agentry-supervisor-");
  const sleep = `sleep 302.${process.pid}${Math.floor(Math.random() * 1e6)}`;
  sleeps = [sleep];
  const script = join(dir, "agentry.ts");
  // Stands for agentry: one command running under the process supervisor, and nothing else to do.
  await writeFile(
    script,
    `import { spawnWatched } from ${JSON.stringify(WATCHED_SPAWN)};
spawnWatched("/bin/sh", ["-c", ${JSON.stringify(sleep)}], { env: process.env, stdio: ["ignore", "ignore", "ignore"] });
setInterval(() => {}, 1_000);
`,
  );
  const agentry = spawn(process.execPath, [script], { stdio: "ignore" });
  const exited = new Promise((resolve) => agentry.on("exit", resolve));
  const pid = agentry.pid ?? 0;
  await waitFor(() => processesRunning(sleep).length === 1, 10_000, "the command to run");
  const [first] = watchdogsOf(pid);
  expect(first).toBeDefined();

  process.kill(first!, "SIGKILL");
  await waitFor(() => watchdogsOf(pid).some((other) => other !== first), 10_000, "a new watchdog");
  agentry.kill("SIGKILL");
  await exited;

  expect(await until(() => processesRunning(sleep).length === 0, 2_000), "the command outlived agentry").toBe(
    true,
  );
});
