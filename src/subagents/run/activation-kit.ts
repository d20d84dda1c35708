import type { Hooks } from "../../agent/hooks.ts";
import type { Outcome, OutcomeEnd } from "../../contracts/outcome.ts";
import { emptyUsage, type Usage, type UserMessage } from "../../model/messages.ts";

/**
 * The parts every executor's activation is made of, wherever the child runs (`in-process-executor.ts`,
 * a remote agent's, a queue worker's): the messages sent to it while it works, the step its parent may
 * interrupt, and the outcome it ends with.
 */

/** Messages sent to an activation while it works: read at its next turn, refused once it ends. */
export class Mailbox {
  private readonly waiting: UserMessage[];
  private open = true;

  constructor(initial: readonly UserMessage[] = []) {
    this.waiting = [...initial];
  }

  /** False once it reads no more (the activation is ending): continue the child with it instead. */
  push(message: UserMessage): boolean {
    if (!this.open) return false;
    this.waiting.push(message);
    return true;
  }

  get size(): number {
    return this.waiting.length;
  }

  /** Every message waiting, in order; none are left. */
  take(): UserMessage[] {
    return this.waiting.splice(0);
  }

  /** It reads no more; the messages nobody read are returned (its caller continues the child with them). */
  close(): UserMessage[] {
    this.open = false;
    return this.take();
  }

  /** For the loop: messages arrive at the next model call, or keep the child going when it would end. */
  hooks(): Hooks {
    return {
      beforeModelCall: () => (this.size > 0 ? { inject: this.take() } : undefined),
      onTurnEnd: ({ toolCallsMade }) =>
        !toolCallsMade && this.size > 0 ? { inject: this.take() } : undefined,
    };
  }
}

/** Why a step was interrupted, as its events and the loop see it. */
export const INTERRUPT_REASON = "interrupted by a message from its parent (task_send)";

/** What a child interrupted without a message of its parent's reads, so it has a turn to go on in. */
export const GO_ON_AFTER_INTERRUPT = "(Your parent interrupted you. Continue.)";

/**
 * The current step of an activation (a model call and its tools, a remote task): it stops when the
 * activation's signal aborts, or when its parent interrupts it to turn to a message at once — and then
 * only the step ends, not the activation.
 */
export class InterruptibleStep {
  private current: AbortController | undefined;
  private interrupted = false;

  /** Runs `work` as the current step; its signal aborts with `signal` or on `interrupt()`. */
  async run<T>(signal: AbortSignal, work: (step: AbortSignal) => Promise<T>): Promise<T> {
    const step = new AbortController();
    this.current = step;
    const stop = () => step.abort(signal.reason);
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
    try {
      return await work(step.signal);
    } finally {
      signal.removeEventListener("abort", stop);
      this.current = undefined;
    }
  }

  /** Stops the current step (none running: nothing happens). */
  interrupt(): void {
    const step = this.current;
    if (step === undefined || step.signal.aborted) return;
    this.interrupted = true;
    step.abort(INTERRUPT_REASON);
  }

  /** Whether the last step was stopped by `interrupt`; reading it clears it. */
  takeInterrupted(): boolean {
    const was = this.interrupted;
    this.interrupted = false;
    return was;
  }
}

/** What an activation got to before it ended: nothing, unless said. */
export interface OutcomeParts {
  sessionId: string;
  /** When the activation began: its duration runs from here. */
  startedAt: number;
  text?: string;
  turns?: number;
  usage?: Usage;
}

/** The outcome of an activation that ends as `end` says, with what it got to (`parts`). */
export function activationOutcome(end: OutcomeEnd, parts: OutcomeParts): Outcome {
  return {
    ...end,
    text: parts.text ?? "",
    turns: parts.turns ?? 0,
    usage: parts.usage ?? emptyUsage(),
    durationMs: Date.now() - parts.startedAt,
    sessionId: parts.sessionId,
  };
}
