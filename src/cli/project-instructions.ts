import { homedir } from "node:os";
import type { Hooks } from "../agent/hooks.ts";
import type { LoadedInstructions } from "../instructions/instruction-file.ts";
import type { InstructionList } from "../instructions/instruction-lists.ts";
import { loadInstructions } from "../instructions/load-instructions.ts";
import { nestedInstructionsHooks } from "../instructions/nested-instructions.ts";
import type { ChildInstructions } from "../subagents/index.ts";
import type { Env } from "./config/load-config.ts";

/**
 * The instruction files of a run in `workspace` (docs/instructions.md), with the `instructions` lists
 * of the config files. In a folder the user does not trust they apply too: they are prompts, not code,
 * and what they may read stays confined (`src/instructions/read-policy.ts`).
 */
export function loadProjectInstructions(options: {
  workspace: string;
  env: Env;
  trusted: boolean;
  lists: readonly InstructionList[];
}): Promise<LoadedInstructions> {
  return loadInstructions({
    workspace: options.workspace,
    home: options.env.HOME || homedir(),
    env: options.env,
    trusted: options.trusted,
    lists: options.lists,
  });
}

/**
 * The root's and every child's share: the section for the system prompt, and the hook that adds a
 * folder's own instruction files when an agent first works there (refused imports: `warn`).
 */
export function instructionsForAgents(
  loaded: LoadedInstructions,
  warn: (message: string) => void,
): ChildInstructions & { hooks: (workspace: string) => Hooks } {
  return {
    section: loaded.section,
    hooks: (workspace) => nestedInstructionsHooks({ context: loaded.context, workspace, warn }),
  };
}
