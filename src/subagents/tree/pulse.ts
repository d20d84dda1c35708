/**
 * A broadcast "something changed": waiters wake on the next `fire`, on abort, or after a timeout.
 * `generation` counts the fires, so a waiter that read state before awaiting something else can pass it
 * to `wait` and not miss a fire that happened in between.
 */
export class Pulse {
  private readonly waiters = new Set<() => void>();
  private fired = 0;

  get generation(): number {
    return this.fired;
  }

  fire(): void {
    this.fired++;
    for (const wake of [...this.waiters]) wake();
  }

  /**
   * Resolves on the next `fire` (at once if one happened since generation `since`), when `signal`
   * aborts, or after `timeoutMs`, whichever comes first.
   */
  wait(signal: AbortSignal | undefined, timeoutMs: number, since = this.fired): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal?.aborted || since !== this.fired) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      signal?.addEventListener("abort", done, { once: true });
      this.waiters.add(done);
    });
  }
}
