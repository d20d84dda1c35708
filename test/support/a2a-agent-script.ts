/**
 * What a scripted test A2A agent does with each message it receives, in order (one step per
 * message; the last step repeats). Shared by the v1.0 and v0.3 test servers, which publish it with
 * the official SDK's server classes of their version.
 */
export type A2aStep =
  /** A task that ends COMPLETED: the answer as an artifact (default) or as the final status message. */
  | { reply: string; delayMs?: number; in?: "artifact" | "status" }
  /** A task that stops in INPUT_REQUIRED with this question. */
  | { inputRequired: string; delayMs?: number }
  /** A task that ends FAILED with this status message. */
  | { fail: string; delayMs?: number }
  /** No task: a bare agent Message answers. */
  | { message: string }
  /**
   * A task that stays WORKING until it is cancelled; with `named`, the agent names the task (its first
   * event) only once that promise settles, as a slow agent may after the client stopped waiting.
   */
  | { hang: true; named?: Promise<void> }
  /** Decided when the message arrives. */
  | ((message: ReceivedMessage) => A2aStep);

/** A message as the test agent received it. */
export interface ReceivedMessage {
  text: string;
  contextId: string;
  taskId: string;
  /** The task existed already (a reply to INPUT_REQUIRED). */
  continued: boolean;
}

export type SettledStep = Exclude<A2aStep, (message: ReceivedMessage) => A2aStep>;

/** Hands out the script's steps in order; the last repeats. */
export function stepper(script: readonly A2aStep[]): (message: ReceivedMessage) => SettledStep {
  let next = 0;
  return (message) => {
    let step = script[Math.min(next, script.length - 1)];
    next++;
    if (step === undefined) throw new Error("the test A2A agent has an empty script");
    while (typeof step === "function") step = step(message);
    return step;
  };
}

/** Resolves after `ms`, or at once when `signal` aborts (the task was cancelled). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
