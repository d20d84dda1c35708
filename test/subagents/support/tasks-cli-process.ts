import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../../bin/agentry.js", import.meta.url));
const ENTRY = fileURLToPath(new URL("./tasks-cli.ts", import.meta.url));
const PROGRAM = new URL("../../../src/cli/program.ts", import.meta.url);

/** The real `bin/agentry.js` once the program registers `tasks`; until then the stand-in entry. */
const entry = readFileSync(PROGRAM, "utf8").includes("registerTasksCommand(") ? BIN : ENTRY;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `agentry <args>` (the tasks command) in a separate process. */
export function runTasksCli(args: string[], cwd: string): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [entry, ...args],
      { cwd, env: { ...process.env, NO_COLOR: "1" }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? 1 : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
