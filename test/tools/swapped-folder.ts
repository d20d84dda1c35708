import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { lstat, symlink } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { onTestFinished } from "vitest";

/**
 * A child process that keeps swapping `folder` between itself and a symbolic link to `target`, as a
 * command of another tool call (or another agent sharing the workspace) could, until the test ends.
 * Each swap is a rename, so `folder` is always either the real folder, the link, or briefly absent.
 */
export async function keepSwapping(folder: string, target: string): Promise<ChildProcess> {
  const link = `${folder}.link`;
  await symlink(target, link);
  const child = spawn(process.execPath, ["-e", SWAPPER, folder, link], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
  });
  // The first swap done: the race is on before the tool's first call.
  await once(child.stdout!, "data");
  // The real folder is always at `folder` or `folder.real`, but it may move between two looks: a few
  // looks, so only a folder that is gone for good is reported.
  const present = () => existsSync(folder) || existsSync(`${folder}.real`);
  if (!Array.from({ length: 20 }).some(present)) throw new Error(`${folder} went missing`);
  return child;
}

/**
 * Stops the swapper (SIGSTOP) at a moment `folder` is the real folder, so a test can show a tool works
 * on it at all: on a loaded machine a slow tool (a ripgrep process each call) may lose every race, and
 * "it never read outside" would then hold without the tool having read anything. The swapper stays
 * stopped; the test's end kills it.
 */
export async function pauseAtRealFolder(swapper: ChildProcess, folder: string): Promise<void> {
  for (let tries = 0; tries < 1000; tries++) {
    swapper.kill("SIGSTOP");
    // A stopped process is seen stopped at once by the next system call: its rename is done or not.
    const real = await lstat(folder).then(
      (stats) => stats.isDirectory(),
      () => false,
    );
    if (real) return;
    swapper.kill("SIGCONT");
    await sleep(1);
  }
  throw new Error(`${folder} was never the real folder in 1,000 looks`);
}

// A tool may create \`folder\` while it is briefly absent; the swapper removes such a folder and goes on.
const SWAPPER = `
const { renameSync, rmSync } = require("node:fs");
const [folder, link] = process.argv.slice(1);
const real = folder + ".real";
const put = (from) => {
  for (let i = 0; i < 100; i++) {
    try { renameSync(from, folder); return; } catch {}
    try { rmSync(folder, { recursive: true, force: true }); } catch {}
  }
};
let told = false;
for (;;) {
  try { renameSync(folder, real); } catch {}
  put(link);
  try { renameSync(folder, link); } catch {}
  put(real);
  if (!told) { process.stdout.write("swapping\\n"); told = true; }
}
`;
