import { spawn } from "node:child_process";

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From just before `spawn` to the process's exit. */
  ms: number;
}

/** Runs `node <args>` to completion, timing it from just before the spawn. */
export function runNode(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<Finished> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env ?? {},
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      const ms = performance.now() - started;
      child.once("close", () => resolve({ code, stdout, stderr, ms }));
    });
  });
}

/** Throws with the output when a process did not exit 0. */
export function expectSuccess(result: Finished, what: string): Finished {
  if (result.code !== 0)
    throw new Error(
      `${what} exited with ${result.code}:\n${result.stderr.slice(0, 2000) || result.stdout.slice(0, 2000)}`,
    );
  return result;
}
