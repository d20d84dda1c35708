import type { Redis } from "ioredis";

/**
 * One handler per pub/sub channel on a subscriber connection (a connection in subscriber mode can do
 * nothing else): `subscribe` adds one and returns how to remove it; a handler replaced since is left
 * alone by the old one's removal.
 */
export class ChannelHandlers {
  private readonly handlers = new Map<string, (message: string) => void>();
  private readonly subscriber: Redis;

  constructor(subscriber: Redis) {
    this.subscriber = subscriber;
    subscriber.on("message", (channel: string, message: string) => this.handlers.get(channel)?.(message));
  }

  /** Calls `handler` with each message on `channel` from the moment this resolves. */
  async subscribe(channel: string, handler: (message: string) => void): Promise<() => void> {
    this.handlers.set(channel, handler);
    await this.subscriber.subscribe(channel);
    return () => {
      if (this.handlers.get(channel) !== handler) return;
      this.handlers.delete(channel);
      void this.subscriber.unsubscribe(channel).catch(() => {});
    };
  }
}
