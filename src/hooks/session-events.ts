import type { EventBody } from "../agent/emitter.ts";
import type { UserMessage } from "../model/messages.ts";
import type { HookRunner } from "./hook-runner.ts";

/** What UserPromptSubmit hooks made of a prompt. */
export type PromptVerdict =
  /** Send it, with what the hooks add for the model (their stdout, `additionalContext`). */
  | { action: "send"; context: string[]; notes: string[] }
  /** Do not send it: the reason is for the person (exit 2's stderr, `decision: "block"`, `continue: false`). */
  | { action: "block"; reason: string };

/**
 * UserPromptSubmit, before a prompt the person typed reaches the session (`agentry run`, each message of
 * `agentry chat`): a block keeps it out of the conversation and tells the person why; what the hooks
 * print is added for the model after the prompt (`withHookContext`). `notes` are their `systemMessage`s.
 */
export async function userPromptSubmit(
  runner: HookRunner,
  prompt: string,
  sessionId: string,
  options: { emit?: (event: EventBody) => void; signal?: AbortSignal } = {},
): Promise<PromptVerdict> {
  if (!runner.has("UserPromptSubmit")) return { action: "send", context: [], notes: [] };
  const answers = await runner.run("UserPromptSubmit", {
    sessionId,
    input: { prompt },
    ...(options.emit === undefined ? {} : { emit: options.emit }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const refused = answers.flatMap((answer) => [
    ...(answer.stop === undefined ? [] : [answer.stop]),
    ...(answer.block === undefined ? [] : [answer.block]),
  ]);
  if (refused.length > 0) return { action: "block", reason: refused.join("\n") };
  return {
    action: "send",
    context: answers.flatMap((answer) => (answer.context === undefined ? [] : [answer.context])),
    notes: answers.flatMap((answer) => (answer.systemMessage === undefined ? [] : [answer.systemMessage])),
  };
}

/** The prompt's message with the hooks' context after it, each in a tag the model can tell apart. */
export function withHookContext(message: UserMessage, context: readonly string[]): UserMessage {
  if (context.length === 0) return message;
  return {
    ...message,
    content: [
      ...message.content,
      ...context.map((text) => ({
        type: "text" as const,
        text: `<user-prompt-submit-hook>\n${text}\n</user-prompt-submit-hook>`,
      })),
    ],
  };
}

/**
 * SessionEnd, when a session is over (`run` finished, `chat` exited or moved to a new session):
 * observing only. `reason` is Claude Code's: `clear`, `prompt_input_exit`, `other`.
 */
export async function sessionEnd(
  runner: HookRunner,
  sessionId: string,
  reason: "clear" | "prompt_input_exit" | "logout" | "other",
  emit?: (event: EventBody) => void,
): Promise<void> {
  if (sessionId === "" || !runner.has("SessionEnd", reason)) return;
  await runner.run("SessionEnd", {
    match: reason,
    sessionId,
    input: { reason },
    ...(emit === undefined ? {} : { emit }),
  });
}
