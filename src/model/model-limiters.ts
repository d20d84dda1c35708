import {
  AdaptiveLimiter,
  type LimiterOptions,
  type LimiterState,
  resolveLimiterOptions,
} from "./adaptive-limiter.ts";

/**
 * The limiters of one run, one per model endpoint (base URL and model). Give the same object to every
 * `createModel` of a tree — the root's model, its children's, a `/model` switch — so that all their
 * calls to one endpoint share one adaptive limit.
 */
export class ModelLimiters {
  readonly options: Readonly<LimiterOptions>;
  private readonly limiters = new Map<string, AdaptiveLimiter>();
  private readonly now: () => number;

  /** Throws a `RangeError` naming a bad option (e.g. `min` above `max`). */
  constructor(options: Partial<LimiterOptions> = {}, now: () => number = () => Date.now()) {
    this.options = resolveLimiterOptions(options);
    this.now = now;
  }

  /** The limiter of `endpoint`, made on first use. */
  for(endpoint: string): AdaptiveLimiter {
    let limiter = this.limiters.get(endpoint);
    if (limiter === undefined) {
      limiter = new AdaptiveLimiter(this.options, this.now);
      this.limiters.set(endpoint, limiter);
    }
    return limiter;
  }

  /** Every endpoint used so far, with its limiter's state now. */
  list(): Array<{ endpoint: string; state: LimiterState }> {
    return [...this.limiters].map(([endpoint, limiter]) => ({ endpoint, state: limiter.state }));
  }
}
