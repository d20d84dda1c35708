import type { Redis } from "ioredis";
import type { TaskChange } from "../task-store.ts";

/**
 * The store's watch: one subscriber connection (a duplicate of the store's, opened on the first
 * listener, closed with the last) on the channel every write publishes its ids to. Pub/sub delivers
 * only while subscribed, so after the connection comes back listeners hear `resync`: read again.
 */
export class RedisWatch {
  private readonly client: Redis;
  private readonly channel: string;
  private readonly listeners = new Set<(change: TaskChange) => void>();
  private subscriber: Redis | undefined;

  constructor(client: Redis, channel: string) {
    this.client = client;
    this.channel = channel;
  }

  add(listener: (change: TaskChange) => void): () => void {
    this.listeners.add(listener);
    this.subscriber ??= this.subscribe();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) void this.close();
    };
  }

  async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }

  private subscribe(): Redis {
    const subscriber = this.client.duplicate({ connectionName: "agentry-tasks-watch", lazyConnect: true });
    subscriber.on("error", () => {});
    let subscribedOnce = false;
    // ioredis re-subscribes by itself after a reconnection; what was published meanwhile is lost.
    subscriber.on("ready", () => {
      if (subscribedOnce) this.tell({ kind: "resync" });
      subscribedOnce = true;
    });
    subscriber.on("message", (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const taskIds = idsOf(message);
      this.tell(taskIds === undefined ? { kind: "resync" } : { kind: "changed", taskIds });
    });
    subscriber
      .connect()
      .then(() => subscriber.subscribe(this.channel))
      .catch(() => {
        // Not reachable now: it retries by itself, and its "ready" then tells the listeners to resync.
      });
    return subscriber;
  }

  private tell(change: TaskChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}

/** The ids of a published `{"ids":[…]}`; undefined for anything else (then everyone re-reads). */
function idsOf(message: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(message);
    if (typeof parsed !== "object" || parsed === null || !("ids" in parsed)) return undefined;
    const { ids } = parsed;
    return Array.isArray(ids) && ids.every((id) => typeof id === "string") ? ids : undefined;
  } catch {
    return undefined;
  }
}
