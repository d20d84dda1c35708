import type { Model } from "../../../model/model.ts";
import { type ExpandOptions, expandCommand } from "../../custom-commands/expand-command.ts";
import type { SavedCommand } from "../../custom-commands/saved-command.ts";
import { commandModel } from "../../custom-commands/slash-prompt.ts";

/** The saved commands of a chat session (`/review security`), as the chat loop runs them. */
export interface ChatSavedCommands {
  list: readonly SavedCommand[];
  /** The prompt `/name args` stands for, and the model its turn runs with (its `model`, where it may apply). */
  prepare(
    command: SavedCommand,
    args: string,
    signal: AbortSignal,
  ): Promise<{ prompt: string; model?: Model }>;
  /** After its turn: its `allowed-tools` end. */
  done(): void;
}

export interface ChatSavedCommandsOptions {
  list: readonly SavedCommand[];
  /** How its text is expanded for the root (`rootExpandOptions`), for this turn's signal. */
  expandOptions: (signal: AbortSignal) => ExpandOptions;
  trusted: boolean;
  sameEndpoint: (id: string) => boolean;
  createModel: (id: string) => Promise<Model>;
  say: (line: string) => void;
}

export function chatSavedCommands(options: ChatSavedCommandsOptions): ChatSavedCommands {
  let expanded: ExpandOptions | undefined;
  return {
    list: options.list,
    async prepare(command, args, signal) {
      expanded = options.expandOptions(signal);
      const prompt = await expandCommand(command, args, expanded);
      const id = commandModel(command, options);
      return id === undefined ? { prompt } : { prompt, model: await options.createModel(id) };
    },
    done() {
      expanded?.grants.clear();
      expanded = undefined;
    },
  };
}
