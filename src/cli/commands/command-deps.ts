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

/**
 * A command's action that loads its module only when the command runs (registering stays cheap:
 * `agentry --version` builds every command), hands it the arguments and options commander parsed,
 * then the io, and keeps the exit code it returns.
 */
export function lazyAction<Args extends unknown[]>(
  { io, result }: CommandDeps,
  load: () => Promise<(...args: [...Args, CliIo]) => Promise<number>>,
): (...args: [...Args, unknown]) => Promise<void> {
  return async (...args) => {
    const run = await load();
    // Commander passes the command itself last: the command's function takes the io there instead.
    result.exitCode = await run(...(args.slice(0, -1) as Args), io);
  };
}
