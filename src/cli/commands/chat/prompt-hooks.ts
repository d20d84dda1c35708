import type { AgentEvent } from "../../../contracts/events.ts";
import { hookRunText } from "../../render/hook-text.ts";
import type { Style } from "../../render/style.ts";
import type { WiredHooks } from "../../wire/wire-hooks.ts";

/**
 * UserPromptSubmit for a line of chat: what the hooks add for the model, or undefined when they blocked
 * it (the person reads why; nothing joins the conversation).
 */
export async function submitChatPrompt(
  hooks: WiredHooks | undefined,
  prompt: string,
  sessionId: string,
  options: { signal: AbortSignal; say: (text: string) => void; style: Style },
): Promise<string[] | undefined> {
  if (hooks === undefined) return [];
  const verdict = await hooks.submit(prompt, sessionId, options.signal);
  if (verdict.action === "block") {
    options.say(options.style.red(`agentry: a UserPromptSubmit hook blocked this prompt: ${verdict.reason}`));
    return undefined;
  }
  for (const note of verdict.notes) options.say(options.style.dim(note));
  return verdict.context;
}

/** Between turns, a hook that blocks or fails is one line on stderr (during a turn, the turn's renderer shows it). */
export function hookLines(say: (text: string) => void, style: Style): (event: AgentEvent) => void {
  return (event) => {
    if (event.type !== "hook_run") return;
    const text = hookRunText(event);
    if (text !== undefined) say(event.result === "blocked" ? style.yellow(text) : style.dim(text));
  };
}
