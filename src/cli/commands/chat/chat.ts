import { homedir } from "node:os";
import type { Session } from "../../../agent/session/session.ts";
import type { Model } from "../../../model/model.ts";
import type { PermissionMode } from "../../../permissions/gate.ts";
import { endpointCheck } from "../../config/resolve-settings.ts";
import { loadCommandFiles } from "../../custom-commands/command-files.ts";
import { rootExpandOptions } from "../../custom-commands/expand-command.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import { exitAborted, handleInterrupts } from "../../interrupts.ts";
import type { CliIo } from "../../io.ts";
import { type Attachment, imageFiles } from "../../prompt-attachments.ts";
import { colorEnabled } from "../../render/style.ts";
import { selectModel } from "../../select-model.ts";
import { chooseSession } from "../../session-choice.ts";
import {
  loadRunSettings,
  type RunSettings,
  selectSessionAndModel,
  sharedWiring,
} from "../../wire/prepare-run.ts";
import { rootWiring, sessionWiring, wireTracedRoot } from "../../wire/start-root.ts";
import { runChat } from "./chat-loop.ts";
import { completeCommand } from "./complete-command.ts";
import { Conversation } from "./conversation.ts";
import { streamLineReader, terminalLineReader } from "./line-reader.ts";
import { chatSavedCommands } from "./saved-commands.ts";
import { pickSession } from "./session-picker.ts";
import { commandNames } from "./slash-commands.ts";
import { switchableModel } from "./switchable-model.ts";
import { TerminalTurn } from "./terminal-turn.ts";
import { trustQuestion } from "./trust-question.ts";

export interface ChatOptions {
  /** `--trust-project`: the project's widening settings apply for this run. */
  trustProject?: boolean;
  model?: string;
  maxTurns?: number;
  maxConcurrency?: number;
  cwd?: string;
  /** `--resume <id>`, or `true` for `--resume` alone: pick a session on the terminal. */
  resume?: string | true;
  /** `-c, --continue`: the latest of the user's sessions in the workspace. */
  continue?: boolean;
  permissionMode?: PermissionMode;
  /** `--system-prompt`: replaces the built-in prompt (the instruction files still follow it). */
  systemPrompt?: string;
  /** `--append-system-prompt`: added after the built-in prompt. */
  appendSystemPrompt?: string;
  agents?: string;
  mcpConfig?: string[];
  /** `--image` files (repeatable): sent with the first message. */
  image?: string[];
  /** `--store` and `--queue`: a fleet on Redis. */
  store?: string;
  queue?: string;
  /** `--no-hooks` sets it false: no hook runs. */
  hooks?: boolean;
}

const PROMPT = "› ";

/**
 * `agentry chat` (and `agentry` alone on a terminal): a multi-turn conversation with the root agent
 * and its subagents, wired exactly as `agentry run` wires them. On a terminal the permission prompt
 * asks; with piped input (one prompt per line) asks resolve by `--permission-mode`.
 */
export async function chatCommand(options: ChatOptions, io: CliIo): Promise<number> {
  const interactive = io.stdin.isTTY === true && io.stderr.isTTY === true;
  // On a terminal, a folder whose files would widen what agentry may do is asked about once.
  const loaded = await loadRunSettings(
    options,
    io,
    interactive ? trustQuestion(io.stdin, io.stderr) : undefined,
  );
  const resume = await chooseSession(loaded.workspace, options, {
    ...(interactive ? { pick: (sessions) => pickSession(sessions, io) } : {}),
    onNoSession: () => io.stderr.write("No earlier session in this workspace: starting a new one.\n"),
  });
  if (options.resume === true && resume === undefined) {
    io.stderr.write("No session chosen.\n");
    return EXIT_CODES.completed;
  }
  const images = await imageFiles(options.image ?? [], { workspace: loaded.workspace, cwd: io.cwd });
  const { resumed, model: initial } = await selectSessionAndModel(
    loaded.workspace,
    loaded.settings,
    io,
    resume,
    loaded.limiters,
  );
  try {
    return await chatWith(resumed, initial, loaded, { ...options, images }, io);
  } finally {
    // chatWith's Conversation closes the session it ends with; a resumed session is also released
    // here when the chat never got that far (closing twice is harmless).
    resumed?.close();
  }
}

async function chatWith(
  resumed: Session | undefined,
  initial: Model,
  loaded: RunSettings,
  options: ChatOptions & { images: Attachment[] },
  io: CliIo,
): Promise<number> {
  const { workspace, settings, rules, limiters, project } = loaded;
  const model = switchableModel(initial);
  const interactive = io.stdin.isTTY === true && io.stderr.isTTY === true;

  const terminal = interactive ? new TerminalTurn(io.stdin, io.stderr) : undefined;
  // Until the session's own handlers take over, Ctrl-C cancels the wiring (MCP servers still starting).
  const starting = new AbortController();
  const disposeStarting = handleInterrupts({
    controller: starting,
    forceExit: () => exitAborted(io.stderr),
  });
  const { wired, tracing } = await wireTracedRoot({
    ...rootWiring(loaded, model, io),
    signal: starting.signal,
    ...(terminal ? { onAsk: terminal.ask, onElicit: terminal.elicit } : {}),
    ...sessionWiring(options, project),
    ...sharedWiring(options),
  }).finally(disposeStarting);
  const { config, runtime, compaction, close, mcp, hooks } = wired;
  if (starting.signal.aborted) {
    await close("the interactive session was interrupted before it started");
    await tracing?.close();
    io.stderr.write("aborted\n");
    return EXIT_CODES.aborted;
  }

  const commands = await loadCommandFiles(workspace, io.env.HOME || homedir());
  for (const problem of commands.problems) io.stderr.write(`warning: ${problem}\n`);
  const createModel = (id: string) =>
    selectModel({ ...settings, model: { value: id, source: "/model" } }, io.env, undefined, limiters);
  const say = (line: string) => io.stderr.write(`${line}\n`);
  const saved = chatSavedCommands({
    list: commands.commands,
    expandOptions: (signal) => rootExpandOptions(wired, settings.trusted, signal, say),
    trusted: settings.trusted,
    sameEndpoint: endpointCheck(project.loaded, {}, io.env),
    createModel,
    say,
  });
  const readerOptions = {
    input: io.stdin,
    output: io.stderr,
    prompt: PROMPT,
    complete: completeCommand(commandNames(commands.commands)),
  };
  const conversation = new Conversation(workspace, model, resumed);
  try {
    return await runChat({
      io,
      ...(tracing === undefined ? {} : { observe: (event) => tracing.event(event) }),
      workspace,
      config,
      runtime,
      compaction,
      model,
      conversation,
      reader: interactive ? terminalLineReader(readerOptions) : streamLineReader(readerOptions),
      color: colorEnabled(io.stderr, io.env),
      // `/model` takes what `--model` takes: an id or an alias, through the same provider settings.
      createModel,
      saved,
      ...(terminal ? { observer: terminal } : {}),
      attach: { workspace, cwd: io.cwd, rules, mcp },
      attachments: options.images,
      ...(hooks === undefined ? {} : { hooks }),
    });
  } finally {
    await close("the interactive session ended");
    await tracing?.close();
    conversation.close();
  }
}
