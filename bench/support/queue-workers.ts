import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const WORKER_MAIN = fileURLToPath(new URL("./queue-worker-main.ts", import.meta.url));

/** A bench worker process (`queue-worker-main.ts`), once it takes jobs. */
export interface BenchWorker {
  /** SIGTERM (it lets go of its jobs), or another signal (SIGKILL: a worker lost mid-child). */
  stop(signal?: NodeJS.Signals): void;
}

/** Starts a worker process on `queue` whose children's model answers as `mode` says. */
export async function startBenchWorker(
  url: string,
  queue: string,
  concurrency: number,
  mode: "instant" | "hang" | `sleep:${number}` = "instant",
): Promise<BenchWorker> {
  const child = spawn(process.execPath, [WORKER_MAIN, url, queue, String(concurrency), mode], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`a bench worker exited with ${code}`)));
    lines.once("line", () => resolve());
  });
  child.removeAllListeners("exit");
  return { stop: (signal = "SIGTERM") => child.kill(signal) };
}
