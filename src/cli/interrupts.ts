import { EXIT_CODES } from "./exit-codes.ts";

export interface InterruptOptions {
  /** Aborted on the first SIGINT, SIGTERM or SIGHUP. */
  controller: AbortController;
  /** Ends the process; called on a second signal, or when the run has not wound down in `graceMs`. */
  forceExit: () => void;
  /** How long the run may take to wind down after the first signal (default 1500 ms, inside the 2 s promise). */
  graceMs?: number;
}

/**
 * Ctrl-C (and SIGTERM, SIGHUP) handling for a run: the first signal aborts it (tools kill their process groups and the
 * loop records the abort); a second one, or a run that does not stop in time, exits at once.
 * Returns a function that removes the handlers.
 */
export function handleInterrupts(options: InterruptOptions): () => void {
  let timer: NodeJS.Timeout | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (options.controller.signal.aborted) {
      options.forceExit();
      return;
    }
    options.controller.abort(new Error(`interrupted (${signal})`));
    timer = setTimeout(options.forceExit, options.graceMs ?? 1500);
    timer.unref();
  };
  // SIGHUP (the terminal closed, the ssh session dropped) ends the run as SIGTERM does: the loop
  // records the abort and the commands die with it instead of running on unseen.
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
    if (timer) clearTimeout(timer);
  };
}

/**
 * Ends the process at once as interrupted: "aborted" on stderr, exit code 130. `alreadyReported`: the
 * run's abort was already reported (its renderer finished while the shutdown went on), so the line is
 * not printed a second time.
 */
export function exitAborted(stderr: NodeJS.WritableStream, alreadyReported = false): never {
  if (!alreadyReported) stderr.write("aborted\n");
  process.exit(EXIT_CODES.aborted);
}

/** The first SIGINT or SIGTERM of a server that runs until it is stopped (`serve`, `ui`). */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
