import { AgentryError } from "../errors/agentry-error.ts";

/** A UserPromptSubmit hook refused the prompt: nothing was sent (exit 2, as a refused mention). */
export class PromptBlockedError extends AgentryError {
  override readonly name = "PromptBlockedError";
  readonly kind = "user";

  constructor(reason: string) {
    super(`the prompt was blocked by a UserPromptSubmit hook and not sent: ${reason}`);
  }
}
