import { AgentryError } from "../errors/agentry-error.ts";
import { type AssistantMessage, emptyUsage, type StopReason, type Usage } from "./messages.ts";

/**
 * The model could not be built from its id and settings (unknown provider, missing key, bad alias).
 * The user is at fault, so the message names exactly what to set: an env var, a flag or a config key.
 */
export class ModelConfigError extends AgentryError {
  override readonly name = "ModelConfigError";
  readonly kind = "user";
}

/** The final message of a stream that did not complete: stopReason `error` or `aborted`. */
export function failedMessage(options: {
  model: string;
  stopReason: Extract<StopReason, "error" | "aborted">;
  errorMessage: string;
  retryable?: boolean;
  usage?: Usage;
  content?: AssistantMessage["content"];
}): AssistantMessage {
  const message: AssistantMessage = {
    role: "assistant",
    content: options.content ?? [],
    stopReason: options.stopReason,
    usage: options.usage ?? emptyUsage(),
    model: options.model,
    errorMessage: options.errorMessage,
  };
  if (options.stopReason === "error") message.retryable = options.retryable ?? false;
  return message;
}
