import { nodeOperations } from "../../../src/tools/node-operations.ts";
import type { Operations } from "../../../src/tools/operations.ts";

/**
 * This machine as one without ripgrep: `command -v rg` (grep's probe) fails, every other call is the
 * real one. With it the grep tool takes its JavaScript engine even where `rg` is installed.
 */
export const withoutRipgrep: Operations = {
  ...nodeOperations,
  exec: (command, options) =>
    command === "command -v rg"
      ? Promise.resolve({ exitCode: 1, output: "", timedOut: false, aborted: false })
      : nodeOperations.exec(command, options),
};

export type GrepEngine = "js" | "ripgrep";

/** The Operations under which grep uses `engine` (ripgrep only where `rg` is installed). */
export function opsFor(engine: GrepEngine): Operations {
  return engine === "js" ? withoutRipgrep : nodeOperations;
}
