import { CommanderError } from "commander";
import { isAgentryError } from "../errors/agentry-error.ts";
import { EXIT_CODE_FOR_FAULT, EXIT_CODES } from "./exit-codes.ts";
import { type CliIo, processIo } from "./io.ts";
import { packageVersion } from "./package-version.ts";
import { createProgram, type ProgramResult } from "./program.ts";

/** The `agentry` command line. Returns the process exit code (see exit-codes.ts); never throws. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const result: ProgramResult = { exitCode: EXIT_CODES.completed };
  const program = createProgram(packageVersion(), io, result);
  try {
    await program.parseAsync(withDefaultCommand(argv, io), { from: "user" });
    return result.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed the message (or the help / version).
      return error.exitCode === 0 ? EXIT_CODES.completed : EXIT_CODES.usage;
    }
    // agentry's own errors are one clean line, their exit code decided by their fault; anything else
    // is a bug and keeps its stack.
    if (isAgentryError(error)) {
      io.stderr.write(`agentry: ${error.message}\n`);
      return EXIT_CODE_FOR_FAULT[error.kind];
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr.write(`agentry: unexpected error (please report it): ${detail}\n`);
    return EXIT_CODES.error;
  }
}

const TOP_LEVEL_OPTIONS = new Set(["-h", "--help", "-v", "--version"]);

const PRINT_OPTIONS = new Set(["-p", "--print"]);

/**
 * `agentry` alone on a terminal is the interactive mode (piped or redirected, it prints the help),
 * `agentry --model opus …` is `agentry chat --model opus …`, and `agentry -p "…"` is `agentry run "…"`,
 * as in other coding agents' CLIs (`claude -p`).
 */
function withDefaultCommand(argv: string[], io: CliIo): string[] {
  const [first] = argv;
  if (first === undefined) return io.stdin.isTTY === true && io.stderr.isTTY === true ? ["chat"] : argv;
  if (!first.startsWith("-") || TOP_LEVEL_OPTIONS.has(first)) return argv;
  const end = argv.indexOf("--");
  const options = end === -1 ? argv : argv.slice(0, end);
  return [options.some((arg) => PRINT_OPTIONS.has(arg)) ? "run" : "chat", ...argv];
}
