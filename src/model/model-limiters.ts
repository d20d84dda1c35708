import {
  AdaptiveLimiter,
  type LimiterOptions,
  type LimiterState,
  resolveLimiterOptions,
} from "./adaptive-limiter.ts";

/**
 * What a model call asks of its endpoint's limiter (`withLimiter`): `AdaptiveLimiter` in this process,
 * or one whose state is shared by the machines of a fleet (`ModelLimiters.shareWith`).
 */
export type EndpointLimiter = Pick<AdaptiveLimiter, "state" | "tryAcquire" | "acquire" | "waitInfo">;

/** Makes the limiter of an endpoint whose state lives elsewhere; `local` is this process's own. */
export type SharedLimiterFactory = (
  endpoint: string,
  options: Readonly<LimiterOptions>,
  local: AdaptiveLimiter,
) => EndpointLimiter;

/**
 * The limiters of one run, one per model endpoint (base URL and model). Give the same object to every
 * `createModel` of a tree — the root's model, its children's, a `/model` switch — so that all their
 * calls to one endpoint share one adaptive limit. With `shareWith`, every machine that shares the
 * factory's store shares it too (a fleet's workers on one provider key learn its limit once).
 */
export class ModelLimiters {
  readonly options: Readonly<LimiterOptions>;
  private readonly limiters = new Map<string, AdaptiveLimiter>();
  private readonly shared = new Map<string, EndpointLimiter>();
  private readonly now: () => number;
  private share: SharedLimiterFactory | undefined;

  /** Throws a `RangeError` naming a bad option (e.g. `min` above `max`). */
  constructor(options: Partial<LimiterOptions> = {}, now: () => number = () => Date.now()) {
    this.options = resolveLimiterOptions(options);
    this.now = now;
  }

  /** From now on, each endpoint's limit is kept where `make` keeps it (models made earlier included). */
  shareWith(make: SharedLimiterFactory): void {
    this.share = make;
    this.shared.clear();
  }

  /** The limiter of `endpoint`, made on first use. */
  for(endpoint: string): EndpointLimiter {
    // Looked up at each call, so a model made before `shareWith` shares from then on.
    const current = (): EndpointLimiter => {
      const local = this.local(endpoint);
      if (this.share === undefined) return local;
      let shared = this.shared.get(endpoint);
      if (shared === undefined) {
        shared = this.share(endpoint, this.options, local);
        this.shared.set(endpoint, shared);
      }
      return shared;
    };
    return {
      get state() {
        return current().state;
      },
      tryAcquire: () => current().tryAcquire(),
      acquire: (signal, onQueued) => current().acquire(signal, onQueued),
      waitInfo: () => current().waitInfo(),
    };
  }

  /** Every endpoint used so far, with its limiter's state now. */
  list(): Array<{ endpoint: string; state: LimiterState }> {
    return [...this.limiters.keys()].map((endpoint) => ({ endpoint, state: this.for(endpoint).state }));
  }

  private local(endpoint: string): AdaptiveLimiter {
    let limiter = this.limiters.get(endpoint);
    if (limiter === undefined) {
      limiter = new AdaptiveLimiter(this.options, this.now);
      this.limiters.set(endpoint, limiter);
    }
    return limiter;
  }
}
