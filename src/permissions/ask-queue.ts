import type { PermissionRequest } from "./types.ts";

export type AskAnswer = "once" | "always" | "reject" | RejectWithMessage;

/** "No", with what the person wants the model to know: why, or what to do instead. */
export interface RejectWithMessage {
  type: "reject";
  message: string;
}

/**
 * Shows one permission prompt to the user and resolves with the answer. `signal` aborts when the
 * prompt is no longer wanted (it timed out or the run was cancelled), so the UI can dismiss it.
 */
export type AskHandler = (request: AskRequest, signal: AbortSignal) => Promise<AskAnswer>;

/**
 * What the user is asked: the request, who asks, the patterns an "always" answer would approve and
 * the same as the rules it adds, written as Claude Code writes them (`Bash(npm test:*)`), to show.
 */
export type AskRequest = PermissionRequest & { agentPath: string[]; always: string[]; alwaysRules: string[] };

export type QueuedAnswer = AskAnswer | "timeout" | "aborted" | { error: unknown };

export interface QueuedAsk {
  request: AskRequest;
  /** Checked when the prompt's turn comes: false when an earlier "always" already covers it. */
  stillNeeded: () => boolean;
  /** The asking agent's cancellation. */
  signal?: AbortSignal;
}

const ANSWERS: readonly unknown[] = ["once", "always", "reject"];

function isAnswer(answer: unknown): answer is AskAnswer {
  if (ANSWERS.includes(answer)) return true;
  if (typeof answer !== "object" || answer === null) return false;
  const { type, message } = answer as Partial<RejectWithMessage>;
  return type === "reject" && typeof message === "string";
}

/**
 * Serializes prompts (a UI shows one at a time; parallel children ask concurrently) and bounds each
 * wait: `timeoutMs` counts from the moment of asking, queueing included, so no ask waits longer.
 * A prompt that times out or is cancelled frees the queue at once, even if its handler never settles.
 */
export function createAskQueue(
  onAsk: AskHandler,
  timeoutMs: number,
): (ask: QueuedAsk) => Promise<QueuedAnswer> {
  let tail: Promise<void> = Promise.resolve();
  return ({ request, stillNeeded, signal }) =>
    new Promise<QueuedAnswer>((resolve) => {
      let settled = false;
      let release = () => {};
      const released = new Promise<void>((done) => {
        release = done;
      });
      const dismiss = new AbortController();
      const onAbort = () => finish("aborted");
      const timer = setTimeout(() => finish("timeout"), timeoutMs);
      function finish(answer: QueuedAnswer): void {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        dismiss.abort();
        release();
        resolve(answer);
      }
      if (signal?.aborted) finish("aborted");
      signal?.addEventListener("abort", onAbort, { once: true });
      tail = tail.then(() => {
        if (settled) return;
        if (!stillNeeded()) {
          finish("once");
          return;
        }
        onAsk(request, dismiss.signal).then(
          (answer) =>
            finish(
              isAnswer(answer) ? answer : { error: new Error(`invalid answer ${JSON.stringify(answer)}`) },
            ),
          (error: unknown) => finish({ error }),
        );
        return released;
      });
    });
}
