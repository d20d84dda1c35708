import type { CompactionOptions } from "../../../agent/compaction/compaction.ts";
import type { AgentConfig } from "../../../agent/config.ts";
import type { AgentEvent } from "../../../contracts/events.ts";
import { isAgentryError } from "../../../errors/agentry-error.ts";
import { withHookContext } from "../../../hooks/session-events.ts";
import type { Model } from "../../../model/model.ts";
import type { SubagentRuntime } from "../../../subagents/index.ts";
import { findCommand } from "../../custom-commands/saved-command.ts";
import { parseSlash } from "../../custom-commands/slash-prompt.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import { exitAborted } from "../../interrupts.ts";
import type { CliIo } from "../../io.ts";
import { promptMessage } from "../../mentions/prompt-message.ts";
import { type Attachment, type AttachmentContext, pastedImage } from "../../prompt-attachments.ts";
import { createStyle } from "../../render/style.ts";
import type { AgentTreeRenderer } from "../../render/with-agent-tree.ts";
import type { WiredHooks } from "../../wire/wire-hooks.ts";
import type { Conversation } from "./conversation.ts";
import type { LineReader } from "./line-reader.ts";
import { findMcpPrompt, mcpPromptTurn } from "./mcp-prompt-command.ts";
import { hookLines, submitChatPrompt } from "./prompt-hooks.ts";
import { runTurn } from "./run-turn.ts";
import type { ChatSavedCommands } from "./saved-commands.ts";
import { parseShellCommand, runShellCommand } from "./shell-command.ts";
import { isBuiltInCommand, parseSlashCommand, runSlashCommand, type SlashContext } from "./slash-commands.ts";
import type { SwitchableModel } from "./switchable-model.ts";
import type { TurnObserver } from "./terminal-turn.ts";
import { turnSummary } from "./turn-summary.ts";

export interface ChatLoopOptions {
  io: CliIo;
  /** Sees every event of every turn (tracing: each turn is a trace of its own). */
  observe?: (event: AgentEvent) => void;
  workspace: string;
  /** The root agent with its subagents; its model is `model`. */
  config: AgentConfig;
  /** Lives for the whole session (children, task records); shut down when it ends. */
  runtime: SubagentRuntime;
  model: SwitchableModel;
  conversation: Conversation;
  reader: LineReader;
  color: boolean;
  createModel(id: string): Promise<Model>;
  /** How conversations are compacted (`/compact`). */
  compaction: CompactionOptions;
  /** On a terminal: Ctrl-C as a key and the permission prompt follow each turn (`TerminalTurn`). */
  observer?: TurnObserver;
  /** Where `@` mentions and pasted image paths are found, and the run's MCP servers (prompts, resources). */
  attach: AttachmentContext;
  /** `--image` files: they go with the first message. */
  attachments?: readonly Attachment[];
  /** Claude Code hooks: UserPromptSubmit before each message, SessionEnd when a session ends. */
  hooks?: WiredHooks;
  /** Saved commands (`/review security`): each runs as the prompt it stands for. */
  saved?: ChatSavedCommands;
}

/**
 * The interactive session: a header, then one line at a time — a slash command, a shell command
 * (`!cmd`, whose output joins the conversation), or a user turn on the same session. Ctrl-C aborts a running turn and returns to the prompt (a second one while it winds
 * down exits at once); at the prompt it is the reader's (clear the line, twice to exit). SIGTERM and
 * SIGHUP end the session. Returns the exit code: 0, or 130 after SIGTERM or SIGHUP.
 */
export async function runChat(options: ChatLoopOptions): Promise<number> {
  const { io, conversation, reader } = options;
  const style = createStyle(options.color);
  const say = (text: string) => io.stderr.write(`${text}\n`);

  let turn: AbortController | undefined;
  let terminated = false;
  const forceExit = () => exitAborted(io.stderr);
  const interruptTurn = (running: AbortController) => {
    if (running.signal.aborted) forceExit();
    else running.abort(new Error("interrupted (Ctrl-C)"));
  };
  const onSigint = () => {
    if (turn) interruptTurn(turn);
    else reader.interrupt();
  };
  const onSigterm = (signal: NodeJS.Signals) => {
    if (terminated) forceExit();
    terminated = true;
    turn?.abort(new Error(`interrupted (${signal})`));
    reader.close();
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigterm);
  // A closed terminal (SIGHUP) ends the session as SIGTERM does, so no command outlives it.
  process.on("SIGHUP", onSigterm);
  // Only once the handlers are in place: a Ctrl-C right after the header must not kill the process.
  say(style.dim(header(options)));

  const betweenTurns = hookLines(say, style);
  options.hooks?.setSink(betweenTurns);
  const slash: Omit<SlashContext, "signal"> = {
    say,
    conversation,
    model: options.model,
    runtime: options.runtime,
    createModel: options.createModel,
    config: options.config,
    compaction: options.compaction,
    savedCommands: options.saved?.list ?? [],
    ...(options.hooks === undefined
      ? {}
      : {
          beforeCompact: (sessionId: string, focus: string) =>
            options.hooks?.preCompact(sessionId, focus) ?? Promise.resolve(),
        }),
  };
  // Images that go with the next message: `--image`, then paths pasted alone on a line.
  let pending: Attachment[] = [...(options.attachments ?? [])];
  const mcp = options.attach.mcp;
  try {
    while (!terminated) {
      const line = await reader.read();
      if (line === undefined) break;
      if (line.trim() === "") continue;
      const pasted = await pastedImage(line, options.attach);
      if (pasted !== undefined) {
        if ("problem" in pasted) say(style.red(`Cannot attach that image: ${pasted.problem}`));
        else {
          pending.push(...pasted.parts);
          say(style.dim(`Attached ${pasted.path}; it goes with your next message.`));
        }
        continue;
      }
      const slashed = parseSlash(line);
      const saved =
        slashed === undefined || isBuiltInCommand(slashed.name)
          ? undefined
          : findCommand(options.saved?.list ?? [], slashed.name);
      const command = saved === undefined ? parseSlashCommand(line) : undefined;
      const mcpPrompt = command && findMcpPrompt(command.name, mcp);
      let turnText = line;
      if (command && mcpPrompt && mcp) {
        const filled = await mcpPromptTurn(mcpPrompt, command.args, mcp, new AbortController().signal);
        if ("problem" in filled) {
          say(style.red(filled.problem));
          continue;
        }
        turnText = filled.text;
        pending.push(...filled.attachments);
      } else if (command) {
        // A command that calls the model (`/compact`) is interrupted by Ctrl-C as a turn is.
        const running = new AbortController();
        turn = running;
        try {
          if ((await runSlashCommand(command, { ...slash, signal: running.signal })) === "exit") break;
        } finally {
          turn = undefined;
        }
        continue;
      }
      const running = new AbortController();
      turn = running;
      options.observer?.begin(running.signal, () => interruptTurn(running));
      let restoreModel: (() => void) | undefined;
      try {
        let prompt = turnText;
        if (saved !== undefined && slashed !== undefined && options.saved !== undefined) {
          const prepared = await options.saved.prepare(saved, slashed.args, running.signal);
          prompt = prepared.prompt;
          if (prepared.model !== undefined) {
            const previous = options.model.current;
            options.model.switchTo(prepared.model);
            restoreModel = () => options.model.switchTo(previous);
          }
        }
        const shell = saved === undefined && command === undefined ? parseShellCommand(line) : undefined;
        if (shell !== undefined) {
          await runShellCommand(shell, {
            config: options.config,
            session: () => conversation.open(),
            signal: running.signal,
            stdout: io.stdout,
            say,
            style,
          });
          continue;
        }
        const context = await submitChatPrompt(options.hooks, prompt, conversation.id, {
          signal: running.signal,
          say,
          style,
        });
        if (context === undefined) continue;
        // Mentions are read inside the turn: reading one may ask permission, and Ctrl-C withdraws it.
        const message = await promptMessage(prompt, {
          config: options.config,
          signal: running.signal,
          sessionId: conversation.id,
          say: (text) => say(style.dim(text)),
          mcp,
        });
        // Images pasted or given with --image, and what an MCP prompt brought, go with this message.
        message.content.splice(1, 0, ...pending);
        pending = [];
        const result = await runTurn(withHookContext(message, context), {
          config: options.config,
          session: await conversation.open(),
          signal: running.signal,
          target: { stdout: io.stdout, stderr: io.stderr, color: options.color },
          ...(options.observe === undefined ? {} : { observe: options.observe }),
          onRenderer: (r: AgentTreeRenderer) => {
            options.observer?.rendering(r);
            options.hooks?.setSink((event) => r.event(event));
          },
        });
        options.hooks?.setSink(betweenTurns);
        say(turnSummary(result, style));
      } catch (error) {
        say(style.red(turnError(error)));
      } finally {
        restoreModel?.();
        if (saved !== undefined) options.saved?.done();
        options.observer?.end();
        turn = undefined;
      }
    }
  } finally {
    reader.close();
    if (conversation.messageCount > 0) await options.hooks?.end(conversation.id, "prompt_input_exit");
    await options.runtime.shutdown("the interactive session ended");
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigterm);
    process.off("SIGHUP", onSigterm);
  }
  return terminated ? EXIT_CODES.aborted : EXIT_CODES.completed;
}

/**
 * A refused mention (the person's to fix: nothing was sent) in one line; anything else is a bug in the
 * turn, reported with its stack, which must not throw away the whole conversation.
 */
function turnError(error: unknown): string {
  if (isAgentryError(error) && error.kind === "user") return `agentry: ${error.message}`;
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `agentry: unexpected error in this turn (please report it): ${detail}`;
}

function header(options: ChatLoopOptions): string {
  const { conversation } = options;
  const count = conversation.messageCount;
  const resumed = count > 0 ? ` (resumed, ${count} message${count === 1 ? "" : "s"})` : "";
  return [
    "agentry",
    options.model.id,
    options.workspace,
    `session ${conversation.id}${resumed}`,
    "/help for commands, Ctrl-D to exit",
  ].join(" · ");
}
