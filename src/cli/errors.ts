import { EXIT_CODES, type ExitCode } from "./exit-codes.ts";

/**
 * An error the CLI reports as one clean line (no stack) with a chosen exit code. Anything else that
 * reaches `main` is a bug and is printed with its stack.
 */
export class CliError extends Error {
  override readonly name: string = "CliError";
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode = EXIT_CODES.error, options?: { cause?: unknown }) {
    super(message, options);
    this.exitCode = exitCode;
  }
}

/** Bad flags, a bad config file, a missing provider: the user must change something before retrying. */
export class UsageError extends CliError {
  override readonly name = "UsageError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, EXIT_CODES.usage, options);
  }
}
