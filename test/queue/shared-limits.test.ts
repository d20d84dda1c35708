import { afterEach, expect, it } from "vitest";
import { userText } from "../../src/model/messages.ts";
import { ModelLimiters } from "../../src/model/model-limiters.ts";
import { createModel } from "../../src/model/registry.ts";
import { shareLimits } from "../../src/queue/fleet-limits.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";
import { scaled } from "../support/time-scale.ts";

// Issue 25: model rate limits were per process — ten workers on one key each learned the provider's
// limit alone. With a store, each endpoint's limit is kept on the fleet's Redis and every machine's
// calls count against it: what one machine learned, the next holds to from its first call.

describeWith(REDIS, "model limits shared through the fleet's Redis", () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  });

  /** One machine: its own limiters, shared through Redis unless `alone`, and its model of the server. */
  async function machine(server: ModelServer, redis: RedisServer, alone = false) {
    const limiters = new ModelLimiters({ initial: 16 });
    if (!alone) closers.push(await shareLimits(redis.url, limiters));
    const model = createModel(
      "anthropic:claude-sonnet-4-5",
      {
        anthropic: { apiKey: "k", baseUrl: server.anthropicBaseUrl },
        retry: { maxRetries: 6, baseDelayMs: 50 },
      },
      {},
      { limiters },
    );
    const call = async () => {
      const stream = model.stream({ system: "s", messages: [userText("hi")], tools: [] });
      for await (const _ of stream);
      return (await stream.result()).stopReason;
    };
    return { limiters, all: (n: number) => Promise.all(Array.from({ length: n }, call)) };
  }

  async function provider() {
    // A provider that takes 4 requests at once and refuses the rest (retry-after: 1 s). Its answers take
    // long enough that a burst of 12 all reach it while the first 4 are answered, on a loaded machine
    // too (scaled: at load 10 a burst of 12 took over a second to leave; and a run that started quiet,
    // at scale 1, got busy enough that 1 s let one through: 2.5 s). Holding the answers until the burst
    // has arrived would not depend on time at all; left for a later change.
    const server = await startModelServer(
      { text: "ok", delayMs: scaled(2_500) },
      { capacity: { maxInFlight: 4 } },
    );
    closers.push(() => server.close());
    return server;
  }

  it(
    "a second machine holds to the limit the first learned: it is refused far less than the first",
    async () => {
      const redis = await startRedisServer();
      closers.push(() => redis.stop());
      const server = await provider();
      const [first, second] = [await machine(server, redis), await machine(server, redis)];

      expect(await first.all(12)).toEqual(Array(12).fill("stop"));
      const refusedFirst = server.capacity?.refusals.length ?? 0;
      expect(await second.all(12)).toEqual(Array(12).fill("stop"));
      const refusedSecond = (server.capacity?.refusals.length ?? 0) - refusedFirst;

      // The first burst: 12 sent at a limit of 16, 8 refused, and the shared limit halved at least (to 8).
      expect(refusedFirst).toBeGreaterThanOrEqual(8);
      // The second machine starts from that limit, not from 16: at most 8 sent at once, 4 of them refused.
      expect(refusedSecond).toBeLessThanOrEqual(4);
      expect(second.limiters.list()[0]?.state.limit).toBeLessThanOrEqual(8);
    },
    scaled(60_000),
  );

  it(
    "without the store, the second machine learns alone: it is refused as often as the first",
    async () => {
      const redis = await startRedisServer();
      closers.push(() => redis.stop());
      const server = await provider();
      const [first, second] = [await machine(server, redis, true), await machine(server, redis, true)];

      await first.all(12);
      const refusedFirst = server.capacity?.refusals.length ?? 0;
      await second.all(12);
      const refusedSecond = (server.capacity?.refusals.length ?? 0) - refusedFirst;

      expect(refusedSecond).toBeGreaterThanOrEqual(8);
      expect(second.limiters.list()[0]?.state.limit).toBeLessThanOrEqual(8);
    },
    scaled(60_000),
  );

  it(
    "while the fleet's Redis does not answer, a machine limits its own calls and they go on",
    async () => {
      const redis = await startRedisServer();
      closers.push(() => redis.stop());
      const server = await provider();
      const alone = await machine(server, redis);

      await redis.kill();

      expect(await alone.all(3)).toEqual(["stop", "stop", "stop"]);
    },
    scaled(60_000),
  );
});
