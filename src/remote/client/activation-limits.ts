import { abortReason } from "../../agent/abort.ts";
import type { OutcomeEnd } from "../../contracts/outcome.ts";
import type { Usage } from "../../model/messages.ts";
import type { RemoteChildSpec } from "../../subagents/placement.ts";
import { formatDuration } from "../../text/format-duration.ts";

/** Why the limits stopped an activation, and the outcome that says so. */
type LimitStop = { kind: "limit"; end: OutcomeEnd };

/**
 * The limits of one remote activation, as a local child's loop enforces them on itself: its parent's
 * signal, its wall-clock and token budgets, and the stall watchdog (no sign of progress from the
 * remote agent for `stallTimeoutMs`). `signal` aborts on the first of them; `end()` says which.
 */
export class ActivationLimits {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly parent: AbortSignal;
  private readonly limits: RemoteChildSpec["limits"];
  private readonly url: string;
  private stallTimer: NodeJS.Timeout | undefined;
  private readonly budgetTimer: NodeJS.Timeout | undefined;
  private tokens = 0;

  constructor(parent: AbortSignal, limits: RemoteChildSpec["limits"], url: string) {
    this.parent = parent;
    this.limits = limits;
    this.url = url;
    this.signal = this.controller.signal;
    const stop = () => this.controller.abort(parent.reason);
    if (parent.aborted) stop();
    else parent.addEventListener("abort", stop, { once: true });
    const { maxDurationMs } = limits;
    if (maxDurationMs !== undefined)
      this.budgetTimer = setTimeout(
        () =>
          this.stop({
            status: "budget_exceeded",
            budget: "time",
            reason: `time budget exceeded: ${formatDuration(maxDurationMs)} (subagents.maxDurationMs)`,
          }),
        maxDurationMs,
      );
    this.activity();
  }

  /** A sign of progress: the stall watchdog starts over. */
  activity(): void {
    clearTimeout(this.stallTimer);
    if (this.controller.signal.aborted) return;
    const { stallTimeoutMs } = this.limits;
    this.stallTimer = setTimeout(
      () =>
        this.stop({
          status: "error",
          reason: "stalled",
          error: `no sign of progress from the remote agent at ${this.url} for ${formatDuration(stallTimeoutMs)} (subagents.stallTimeoutMs); it was asked to cancel the task`,
        }),
      stallTimeoutMs,
    );
  }

  /** Tokens the remote agent reports it used (a turn's usage): past the budget, the activation stops. */
  used(usage: Usage): void {
    this.tokens += usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    const { maxTokens } = this.limits;
    if (maxTokens !== undefined && this.tokens > maxTokens)
      this.stop({
        status: "budget_exceeded",
        budget: "tokens",
        reason: `token budget exceeded: ${this.tokens} tokens used, the limit is ${maxTokens} (subagents.maxTokens)`,
      });
  }

  /** How the activation ends when it was stopped: a limit's outcome, else its parent's abort. */
  end(): OutcomeEnd {
    const reason: unknown = this.controller.signal.reason;
    if (isLimitStop(reason)) return reason.end;
    return {
      status: "aborted",
      reason: this.parent.aborted ? abortReason(this.parent) : abortReason(this.signal),
    };
  }

  dispose(): void {
    clearTimeout(this.stallTimer);
    clearTimeout(this.budgetTimer);
  }

  private stop(end: OutcomeEnd): void {
    if (!this.controller.signal.aborted) this.controller.abort({ kind: "limit", end } satisfies LimitStop);
  }
}

function isLimitStop(value: unknown): value is LimitStop {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "limit";
}
