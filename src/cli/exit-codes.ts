import type { OutcomeStatus } from "../contracts/outcome.ts";
import type { ErrorKind } from "../errors/agentry-error.ts";

/**
 * Process exit codes of `agentry`. Scripts branch on these, so they are part of the public
 * interface: never renumber, only add. Documented in docs/exit-codes.md.
 */
export const EXIT_CODES = {
  /** The run completed (the model stopped calling tools and answered). */
  completed: 0,
  /** The run failed: the model provider kept failing, a stream broke, an unexpected error. */
  error: 1,
  /** Bad command line or configuration; nothing was run. */
  usage: 2,
  /** The run stopped at --max-turns before the model finished. */
  maxTurns: 3,
  /** A token or time budget stopped the run. */
  budgetExceeded: 4,
  /** Interrupted (SIGINT / SIGTERM / SIGHUP, Ctrl-C). 128 + SIGINT, as shells report it. */
  aborted: 130,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

export function exitCodeForOutcome(status: OutcomeStatus): ExitCode {
  switch (status) {
    case "completed":
      return EXIT_CODES.completed;
    case "error":
      return EXIT_CODES.error;
    case "max_turns":
      return EXIT_CODES.maxTurns;
    case "budget_exceeded":
      return EXIT_CODES.budgetExceeded;
    case "aborted":
      return EXIT_CODES.aborted;
  }
}

/** The exit code of an agentry error, by who must act: the user (2) or not (1). The one mapping. */
export const EXIT_CODE_FOR_FAULT: Readonly<Record<ErrorKind, ExitCode>> = {
  user: EXIT_CODES.usage,
  model: EXIT_CODES.error,
  system: EXIT_CODES.error,
};
