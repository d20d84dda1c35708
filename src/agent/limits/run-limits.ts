import type { Budget } from "../../contracts/outcome.ts";
import { AgentryError } from "../../errors/agentry-error.ts";
import type { Usage } from "../../model/messages.ts";
import { formatDuration } from "../../text/format-duration.ts";
import { totalTokens } from "./token-estimate.ts";

/** Per-run limits beyond max turns. All optional; unset means unlimited. */
export interface RunLimits {
  /** Input + output + cache tokens over the whole run. */
  maxTokens?: number;
  /** Wall-clock budget of the run. */
  maxDurationMs?: number;
  /** Fail the run when neither the model nor a tool has shown activity for this long. */
  stallTimeoutMs?: number;
}

/** A budget, or the stall watchdog. */
export type RunLimit = Budget | "stall";

/** Why a run was stopped by one of its limits (the abort reason of the run's signal). */
export class RunLimitExceeded extends AgentryError {
  override readonly name = "RunLimitExceeded";
  readonly kind = "user";
  readonly limit: RunLimit;

  constructor(limit: RunLimit, message: string) {
    super(message);
    this.limit = limit;
  }
}

export interface LimitWatch {
  /** Aborts when the caller's signal aborts or a limit is exceeded. */
  readonly signal: AbortSignal;
  /** Records activity (any event of the run), which resets the stall timer. */
  touch(): void;
  /**
   * Stops the stall timer (`"stall"`), or it and the wall-clock budget (`"all"`), until the returned
   * function is called; holds may overlap. For waits for a model endpoint's capacity, which are
   * neither a stall nor the run's work.
   */
  hold(scope?: "stall" | "all"): () => void;
  /** Aborts with a budget reason when the usage so far is over the token budget. */
  checkUsage(usage: Usage): void;
  /**
   * Aborts with a budget reason when the usage so far plus the estimate of the model call in flight
   * (`token-estimate.ts`) is over the token budget: the budget holds during streaming.
   */
  checkEstimate(usage: Usage, inFlight: number): void;
  dispose(): void;
}

/** Watches a run's budgets and activity; the run sees one signal for "stop now", whatever the cause. */
export function watchLimits(outer: AbortSignal, limits: RunLimits = {}): LimitWatch {
  const controller = new AbortController();
  const stop = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const onOuterAbort = () => stop(outer.reason);
  if (outer.aborted) stop(outer.reason);
  else outer.addEventListener("abort", onOuterAbort, { once: true });

  const timers: NodeJS.Timeout[] = [];
  let stallHolds = 0;
  let wallHolds = 0;
  let heldSince = 0;
  let deadline = limits.maxDurationMs === undefined ? undefined : Date.now() + limits.maxDurationMs;
  let wallTimer: NodeJS.Timeout | undefined;
  const armWall = () => {
    if (limits.maxDurationMs === undefined || deadline === undefined) return;
    const seconds = Math.round(limits.maxDurationMs / 100) / 10;
    wallTimer = setTimeout(
      () => stop(new RunLimitExceeded("time", `wall-clock budget of ${seconds}s exceeded`)),
      Math.max(0, deadline - Date.now()),
    );
    wallTimer.unref();
  };
  armWall();
  let lastActivity = Date.now();
  const stallMs = limits.stallTimeoutMs;
  if (stallMs !== undefined) {
    const check = setInterval(
      () => {
        if (stallHolds > 0) return;
        const idle = Date.now() - lastActivity;
        if (idle >= stallMs)
          stop(
            new RunLimitExceeded("stall", `stalled: no model or tool activity for ${formatDuration(idle)}`),
          );
      },
      Math.max(10, Math.min(stallMs / 4, 5_000)),
    );
    timers.push(check);
  }
  for (const timer of timers) timer.unref();

  return {
    signal: controller.signal,
    touch: () => {
      lastActivity = Date.now();
    },
    hold: (scope = "all") => {
      stallHolds++;
      if (scope === "all" && wallHolds++ === 0) {
        heldSince = Date.now();
        clearTimeout(wallTimer);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const now = Date.now();
        if (--stallHolds === 0) lastActivity = now;
        if (scope === "all" && --wallHolds === 0) {
          if (deadline !== undefined) deadline += now - heldSince;
          if (!controller.signal.aborted) armWall();
        }
      };
    },
    checkUsage: (usage) => {
      const total = totalTokens(usage);
      if (limits.maxTokens !== undefined && total > limits.maxTokens)
        stop(new RunLimitExceeded("tokens", `token budget of ${limits.maxTokens} exceeded (used ${total})`));
    },
    checkEstimate: (usage, inFlight) => {
      const used = totalTokens(usage);
      if (limits.maxTokens === undefined || used + inFlight <= limits.maxTokens) return;
      stop(
        new RunLimitExceeded(
          "tokens",
          `token budget of ${limits.maxTokens} exceeded (used ${used}, and about ${inFlight} for the model call in flight, which was stopped)`,
        ),
      );
    },
    dispose: () => {
      clearTimeout(wallTimer);
      deadline = undefined;
      for (const timer of timers) clearTimeout(timer);
      outer.removeEventListener("abort", onOuterAbort);
    },
  };
}
