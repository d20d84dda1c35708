import { InvalidArgumentError, Option } from "commander";
import { PERMISSION_MODES } from "../../permissions/modes.ts";

// Options several commands share, spelled once so `agentry help <command>` says the same everywhere.

export const cwdOption = () =>
  new Option("-C, --cwd <dir>", "workspace directory (default: the current directory)");

export const resumeOption = () =>
  new Option("-r, --resume <session-id>", "continue a stored session (see: agentry sessions list)");

/** `--trust-project`, as every command that reads a project's settings takes it. */
export const trustProjectOption = () =>
  new Option(
    "--trust-project",
    "let this folder's project settings that widen what agentry may do apply for this run (MCP servers, allow rules …; see agentry trust)",
  );

/** `-c, --continue`, as `run` and `chat` take it; `--resume` names a session, so not both. */
export const continueOption = () =>
  new Option(
    "-c, --continue",
    "continue the latest of your sessions in the workspace (not a subagent's)",
  ).conflicts("resume");

/** `--no-hooks`, as `run` and `chat` take it. */
export const noHooksOption = () =>
  new Option("--no-hooks", "run no hook of any settings file or agent file for this run (see docs/hooks.md)");

export const jsonOption = (description = "print JSON for scripts") => new Option("--json", description);

export const permissionModeOption = (description: string) =>
  new Option("--permission-mode <mode>", description).choices(PERMISSION_MODES);

/** `--mcp-config`, repeatable, as `run`, `chat` and `mcp list` take it. */
export function mcpConfigOption(): Option {
  return new Option(
    "--mcp-config <file-or-json>",
    'more MCP servers: a JSON file or string, { "mcpServers": { name: { "command": …, "args": […] } } } as in Claude Code\'s .mcp.json (repeatable)',
  ).argParser(repeatable);
}

/** A parser of whole positive numbers (a count, a limit): `0`, `1.5` and `ten` are refused. */
export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number <= 0) {
    throw new InvalidArgumentError("must be a positive integer.");
  }
  return number;
}

/** A parser of positive numbers, `what` naming them in its error (`a positive number of seconds`). */
export function positiveNumberOf(what: string): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(number > 0))
      throw new InvalidArgumentError(`must be ${what}.`);
    return number;
  };
}

export const positiveNumber = positiveNumberOf("a positive number");

/** `--max-concurrency`, as `run` and `chat` take it. */
export function maxConcurrencyOption(): Option {
  return new Option(
    "--max-concurrency <n>",
    "the most model calls in flight at once per model endpoint, for the agent and its subagents together; the limit adapts below it to what the provider accepts (default 32)",
  ).argParser(positiveInteger);
}

/** `--image`, repeatable, as `run` and `chat` take it. */
export function imageOption(): Option {
  return new Option(
    "--image <path>",
    "an image (PNG, JPEG, GIF, WebP) sent with the prompt (repeatable); chat sends it with the first message",
  ).argParser(repeatable);
}

/** A repeatable option's values, in the order given. */
function repeatable(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--host`, as the servers (`serve`, `ui`) take it: loopback unless told otherwise. */
export const hostOption = () => new Option("--host <address>", "address to listen on").default("127.0.0.1");

/** `--port`, as the servers take it, each with its own default; 0 picks a free one. */
export const portOption = (defaultPort: number) =>
  new Option("--port <n>", "port to listen on (0 picks a free one)")
    .default(defaultPort)
    .argParser((value: string) => (value === "0" ? 0 : positiveInteger(value)));
