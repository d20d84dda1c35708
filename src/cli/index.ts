// `agentry-ai/cli`: the command line as a library — `main(argv)` runs agentry as the `agentry` command
// does, and the documented exit codes. Kept apart from `agentry-ai` so that importing the library
// loads neither commander nor any of the CLI's modules.
export { EXIT_CODES, type ExitCode, exitCodeForOutcome } from "./exit-codes.ts";
export { main } from "./main.ts";
