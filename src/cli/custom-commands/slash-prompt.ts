import type { CommandProvider, SavedCommand } from "./saved-command.ts";
import { findCommand } from "./saved-command.ts";

/** `/name args…` → its parts (a name may hold `:` and `.`); anything else (a path such as `/usr/bin …`) is not one. */
export function parseSlash(line: string): { name: string; args: string } | undefined {
  const match = /^\/([A-Za-z][\w:.-]*)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match?.[1]) return undefined;
  return { name: match[1], args: (match[2] ?? "").trim() };
}

/** The saved command a prompt runs (`agentry run /review security`), with its arguments; else undefined. */
export async function savedCommandFor(
  prompt: string,
  provider: CommandProvider,
): Promise<{ command: SavedCommand; args: string } | undefined> {
  const slash = parseSlash(prompt);
  if (slash === undefined) return undefined;
  const command = findCommand(await provider.commands(), slash.name);
  return command === undefined ? undefined : { command, args: slash.args };
}

/**
 * The model a command's turn runs with: its `model`, where it may apply — the user's command always; a
 * repository's in a trusted folder, or on the endpoint the run uses anyway (another endpoint is where
 * a repository would send the user's key). `say` tells the person when it does not.
 */
export function commandModel(
  command: SavedCommand,
  options: { trusted: boolean; sameEndpoint: (id: string) => boolean; say: (line: string) => void },
): string | undefined {
  const model = command.model;
  if (model === undefined) return undefined;
  if (command.source.kind !== "project" || options.trusted || options.sameEndpoint(model)) return model;
  options.say(
    `/${command.name}: model "${model}" is on another endpoint and the folder is not trusted; using the run's model`,
  );
  return undefined;
}
