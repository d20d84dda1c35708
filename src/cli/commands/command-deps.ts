import type { CliIo } from "../io.ts";

/** What a command's action hands back to `main`. */
export interface ProgramResult {
  exitCode: number;
}

/** What every command's registration gets: where to write, and where to put its exit code. */
export interface CommandDeps {
  io: CliIo;
  result: ProgramResult;
}
