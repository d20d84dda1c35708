import { type AgentConfig, DEFAULT_TOOL_OUTPUT_LIMIT } from "../../../agent/config.ts";
import type { Session } from "../../../agent/session/session.ts";
import { truncateToolOutput } from "../../../agent/tool-calls/truncate.ts";
import { isAgentryError } from "../../../errors/agentry-error.ts";
import type { UserMessage } from "../../../model/messages.ts";
import { PermissionDeniedError } from "../../../permissions/types.ts";
import { errorMessage } from "../../../text/error-message.ts";
import type { Style } from "../../render/style.ts";
import { rootToolContext } from "../../root-tool-context.ts";

/** `!ls -la` (or `! ls -la`) → `ls -la`; undefined for a line that is not a shell command. */
export function parseShellCommand(line: string): string | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith("!")) return undefined;
  const command = trimmed.slice(1).trim();
  return command === "" ? undefined : command;
}

export interface ShellCommandOptions {
  /** The root agent: its bash tool, command policy (the OS sandbox) and permission gate. */
  config: AgentConfig;
  /** Opened only when the command ran: a refused one leaves no message (and no new transcript). */
  session: () => Promise<Session>;
  signal: AbortSignal;
  stdout: NodeJS.WritableStream;
  say: (line: string) => void;
  style: Style;
}

/**
 * `!cmd` in chat, as Claude Code's bash mode: the person runs a command through the root's own `bash`
 * tool — the same permission rules, prompt and OS sandbox as the agent's commands — its output streams
 * to the terminal, and the command with its output goes into the conversation as a user message, which
 * the model reads with the next turn (no turn runs now). A refused command adds nothing.
 */
export async function runShellCommand(command: string, options: ShellCommandOptions): Promise<void> {
  const { config, style, say } = options;
  const bash = config.tools.find((tool) => tool.name === "bash");
  if (bash === undefined) {
    say(
      style.red(
        "agentry: the agent has no bash tool here (its permission rules deny it), so ! runs nothing.",
      ),
    );
    return;
  }
  const redact = config.redact ?? ((text: string) => text);
  const toolCallId = `user-shell-${Date.now().toString(36)}`;
  const context = rootToolContext(config, options.signal, {
    sessionId: "",
    toolCallId,
    progress: (chunk) => options.stdout.write(redact(chunk)),
  });
  let output: string;
  try {
    const result = await bash.execute({ command }, context);
    output = typeof result === "string" ? result : result.content;
  } catch (error) {
    if (error instanceof PermissionDeniedError || options.signal.aborted) {
      say(style.red(`agentry: not run: ${firstSentence(error)}`));
      return;
    }
    // A command that ran and failed (timed out, killed) still goes into the conversation.
    if (!isAgentryError(error)) throw error;
    output = error.message;
    say(style.red(output));
  }
  const session = await options.session();
  const truncated = await truncateToolOutput({
    text: redact(output),
    limit: config.toolOutputLimit ?? DEFAULT_TOOL_OUTPUT_LIMIT,
    workspace: config.workspace,
    ops: config.ops,
    sessionId: session.id,
    toolCallId,
  });
  await session.append(shellMessage(redact(command), truncated.text));
  say(style.dim("(the command and its output are in the conversation for the next turn)"));
}

/** Claude Code's bash-mode tags, with one line saying who ran it. */
export function shellMessage(command: string, output: string): UserMessage {
  const text =
    "The user ran a shell command in agentry chat (with !); here are the command and its output.\n" +
    `<bash-input>${command}</bash-input>\n<bash-output>${output}</bash-output>`;
  return { role: "user", content: [{ type: "text", text }] };
}

function firstSentence(error: unknown): string {
  const message = errorMessage(error);
  return message.split(/(?<=\.) /)[0] ?? message;
}
