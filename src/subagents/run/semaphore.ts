/** A counting semaphore with a FIFO queue; `acquire` is abortable while waiting. */
export class Semaphore {
  private active = 0;
  private readonly waiters: Array<{ grant: () => void; reject: (reason: unknown) => void }> = [];

  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiters.length;
  }

  /** A slot at once when one is free (no one can be waiting then), else `undefined`. */
  tryAcquire(): (() => void) | undefined {
    if (this.active >= this.capacity) return undefined;
    this.active++;
    return this.releaser();
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.active < this.capacity) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next.grant();
      else this.active--;
    };
  }
}
