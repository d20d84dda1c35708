import { commandEnv } from "../../sandbox/command-env.ts";
import { confineCommand } from "../../sandbox/confine-command.ts";
import { findExecutable } from "../../sandbox/find-executable.ts";
import type { ExecOptions, ExecResult } from "../operations.ts";
import { runProcessGroup } from "./process-run.ts";

let cachedShell: string | undefined;

/** bash from PATH (or /bin/bash), else /bin/sh. */
export function findShell(): string {
  if (cachedShell !== undefined) return cachedShell;
  cachedShell =
    findExecutable("bash", process.cwd(), process.env.PATH ?? "") ??
    findExecutable("/bin/bash", "/", "") ??
    "/bin/sh";
  return cachedShell;
}

const ABORTED: ExecResult = { exitCode: null, output: "", timedOut: false, aborted: true };

/**
 * Runs `command` with `shell -c` in a process group of its own (`process-run.ts`). With
 * `options.sandbox` the shell runs inside the OS sandbox (`src/sandbox/`); afterwards, protected paths
 * the command created are removed and named in the result. With `options.inheritEnv` only those
 * variables of agentry's environment reach the command.
 */
export async function runShellCommand(command: string, options: ExecOptions): Promise<ExecResult> {
  if (options.signal.aborted) return ABORTED;
  const argv = [findShell(), "-c", command];
  const confined =
    options.sandbox === undefined
      ? undefined
      : await confineCommand(options.sandbox.policy, options.sandbox.profile, argv, options.cwd);
  const inherited =
    options.inheritEnv === undefined ? process.env : commandEnv(process.env, options.inheritEnv);
  const env = { ...inherited, ...options.env, ...confined?.env };
  let result: ExecResult = ABORTED;
  try {
    if (!options.signal.aborted) {
      result = await runProcessGroup(
        confined === undefined
          ? { file: argv[0] as string, args: argv.slice(1), env }
          : { file: confined.file, args: confined.args, env },
        options,
      );
    }
  } finally {
    const removed = (await confined?.afterExit()) ?? [];
    if (removed.length > 0) result = { ...result, removedPaths: removed };
  }
  return result;
}
