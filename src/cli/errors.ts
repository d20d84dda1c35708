import { AgentryError } from "../errors/agentry-error.ts";

/**
 * Bad flags, a bad config file, a missing provider: the user must change something before retrying.
 * Like every `AgentryError` of kind `user`, `main` prints it as one clean line and exits 2.
 */
export class UsageError extends AgentryError {
  override readonly name = "UsageError";
  readonly kind = "user";
}
