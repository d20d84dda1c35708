import { execFile } from "node:child_process";
import { cliBin } from "../../support/cli-bin.ts";
import { scaled } from "../../support/time-scale.ts";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `agentry <args>` (the tasks command) in a separate process. */
export function runTasksCli(args: string[], cwd: string): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliBin(), ...args],
      { cwd, env: { ...process.env, NO_COLOR: "1" }, timeout: scaled(30_000) },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? 1 : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
