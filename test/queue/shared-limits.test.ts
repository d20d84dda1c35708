import { afterEach, expect, it } from "vitest";
import { userText } from "../../src/model/messages.ts";
import { ModelLimiters } from "../../src/model/model-limiters.ts";
import { createModel } from "../../src/model/registry.ts";
import { shareLimits } from "../../src/queue/fleet-limits.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import { until } from "../support/processes.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";
import { scaled } from "../support/time-scale.ts";

// Issue 25: model rate limits were per process — ten workers on one key each learned the provider's
// limit alone. With a store, each endpoint's limit is kept on the fleet's Redis and every machine's
// calls count against it: what one machine learned, the next holds to from its first call.

/** Each machine's limit of calls at once to an endpoint until it has learned one. */
const INITIAL_LIMIT = 16;

describeWith(REDIS, "model limits shared through the fleet's Redis", () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  });

  /** One machine: its own limiters, shared through Redis unless `alone`, and its model of the server. */
  async function machine(server: ModelServer, redis: RedisServer, alone = false) {
    // No probe above a learnt limit: it comes after 5 s of full use, which a run on a loaded machine
    // can last, and would draw refusals of its own.
    const limiters = new ModelLimiters({ initial: INITIAL_LIMIT, probeMs: 3_600_000 });
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

  /**
   * A provider that takes 4 requests at once and refuses the rest (retry-after: 1 s). It holds each
   * answer until the whole of the current burst has reached it (the refused requests counted), so that
   * how many are refused depends on what the client sent at once, never on how fast the machine is: an
   * answer given early would let a late request of the same burst through.
   */
  async function provider() {
    const current = { from: 0, measure: () => 0, size: undefined as number | undefined };
    const server: ModelServer = await startModelServer(
      async () => {
        // Read at the burst's first answer, before a refusal lowers the client's limit.
        current.size ??= current.measure();
        const { from, size } = current;
        await until(() => server.requests.length - from >= size, 30_000);
        return { text: "ok" };
      },
      { capacity: { maxInFlight: 4 } },
    );
    closers.push(() => server.close());
    /** Starts a burst: `sentAtOnce` says how many requests the client sends at once. */
    const startBurst = (sentAtOnce: () => number) => {
      current.from = server.requests.length;
      current.measure = sentAtOnce;
      current.size = undefined;
    };
    return { server, burst: startBurst };
  }

  /** What a machine sends at once: its limit for the endpoint (the initial one until it has one), at most `n`. */
  const sentAtOnce = (limiters: ModelLimiters, n: number) => () =>
    Math.min(n, limiters.list()[0]?.state.limit ?? INITIAL_LIMIT);

  it(
    "a second machine holds to the limit the first learned: it is refused far less than the first",
    async () => {
      const redis = await startRedisServer();
      closers.push(() => redis.stop());
      const { server, burst } = await provider();
      const [first, second] = [await machine(server, redis), await machine(server, redis)];

      burst(sentAtOnce(first.limiters, 12));
      expect(await first.all(12)).toEqual(Array(12).fill("stop"));
      const refusedFirst = server.capacity?.refusals.length ?? 0;
      burst(sentAtOnce(second.limiters, 12));
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
      const { server, burst } = await provider();
      const [first, second] = [await machine(server, redis, true), await machine(server, redis, true)];

      burst(sentAtOnce(first.limiters, 12));
      await first.all(12);
      const refusedFirst = server.capacity?.refusals.length ?? 0;
      burst(sentAtOnce(second.limiters, 12));
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
      const { server } = await provider();
      const alone = await machine(server, redis);

      await redis.kill();

      expect(await alone.all(3)).toEqual(["stop", "stop", "stop"]);
    },
    scaled(60_000),
  );
});
