// `agentry tasks …` on its own: node tasks-cli.ts tasks list --json
// Until src/cli/program.ts registers the tasks command, cross-process tests run it through this entry,
// which wires `registerTasksCommand` onto a fresh commander program the way program.ts does.
import { Command, CommanderError } from "commander";
import { registerTasksCommand } from "../../../src/cli/commands/tasks.ts";
import { CliError } from "../../../src/cli/errors.ts";
import { EXIT_CODES } from "../../../src/cli/exit-codes.ts";
import { processIo } from "../../../src/cli/io.ts";
import type { ProgramResult } from "../../../src/cli/program.ts";

const io = processIo();
const result: ProgramResult = { exitCode: EXIT_CODES.completed };
const program = new Command("agentry")
  .exitOverride()
  .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
registerTasksCommand(program, { io, result });
try {
  await program.parseAsync(process.argv.slice(2), { from: "user" });
  process.exitCode = result.exitCode;
} catch (error) {
  if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : EXIT_CODES.usage;
  else if (error instanceof CliError) {
    io.stderr.write(`agentry: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else throw error;
}
