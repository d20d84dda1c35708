import { newSessionId } from "../../agent/session/session-id.ts";
import type { ModelLimiters } from "../../model/model-limiters.ts";
import { queueNameProblem } from "../../queue/fleet-keys.ts";
import type { ChildPlacement, DescendantCount } from "../../subagents/placement.ts";
import type { TaskStore } from "../../tasks/task-store.ts";
import type { Env } from "../config/config-locations.ts";
import type { FleetSettings } from "../config/fleet-settings.ts";
import { UsageError } from "../errors.ts";
import { storeUrl } from "../fleet-flags.ts";

export interface FleetFlags {
  /** `--store` */
  store?: string;
  /** `--queue <name>` */
  queue?: string;
}

/** Where a run keeps its task records and runs its children; the defaults are this workspace and process. */
export interface WiredFleet {
  taskStore?: TaskStore;
  placement?: ChildPlacement;
  /** Where the tree's descendants are counted with a queue: the fleet's Redis, which its workers count into. */
  descendants?: DescendantCount;
  close(): Promise<void>;
}

/**
 * The run's fleet, from `--store`/`AGENTRY_REDIS_URL`/`fleet.redis` and `--queue`/`fleet.queue`: task records on Redis, and
 * children on its queue; `limiters`' endpoint limits shared there. Redis that cannot be reached fails now,
 * before any model is called.
 */
export async function wireFleet(
  flags: FleetFlags,
  env: Env,
  configured: FleetSettings,
  warn: (message: string) => void,
  limiters?: ModelLimiters,
): Promise<WiredFleet> {
  const url = storeUrl(flags.store, env, configured.redis);
  const queue = flags.queue ?? configured.queue;
  if (queue !== undefined) refuseQueueName(queue, flags.queue === undefined ? "fleet.queue" : "--queue");
  if (url === undefined) {
    if (queue !== undefined)
      throw new UsageError(
        "A queue (--queue or fleet.queue) needs the fleet's Redis: give --store redis://host:port/db, set AGENTRY_REDIS_URL or fleet.redis in your user config.",
      );
    return { close: async () => {} };
  }
  const { RedisTaskStore } = await import("../../tasks/redis/redis-task-store.ts");
  const taskStore = await RedisTaskStore.connect(url);
  // Every machine of the fleet calling one model endpoint learns its limit once, together.
  const unshare =
    limiters === undefined
      ? async () => {}
      : await (await import("../../queue/fleet-limits.ts"))
          .shareLimits(url, limiters)
          .catch(async (error: unknown) => {
            await taskStore.close();
            throw error;
          });
  const closeStore = async () => {
    await unshare();
    await taskStore.close();
  };
  if (queue === undefined) return { taskStore, close: closeStore };
  try {
    const { FleetClient } = await import("../../queue/parent/index.ts");
    const { fleetKeyFromEnv } = await import("../../queue/fleet-key.ts");
    const key = fleetKeyFromEnv(env);
    const { lostAfterMs, noWorkerTimeoutMs } = configured;
    const client = await FleetClient.open({
      url,
      queue,
      warn: (message) => warn(message),
      ...(key === undefined ? {} : { key }),
      ...(lostAfterMs === undefined ? {} : { lostAfterMs }),
      ...(noWorkerTimeoutMs === undefined ? {} : { noWorkerTimeoutMs }),
    });
    await client.ready();
    const { queuePlacement } = await import("../../queue/parent/index.ts");
    const { fleetDescendants } = await import("../../queue/fleet-descendants.ts");
    return {
      taskStore,
      placement: queuePlacement(client),
      // Its children on workers start children there: the tree's cap is counted where all see it.
      descendants: fleetDescendants(client.commands, client.prefix, newSessionId({ prefix: "tree" })),
      async close() {
        await client.close();
        await closeStore();
      },
    };
  } catch (error) {
    await closeStore();
    throw error;
  }
}

/**
 * A queue's name is a name: `--queue redis://…` (the server where its name goes) is refused before
 * anything connects, saying where each goes.
 */
export function refuseQueueName(queue: string, where: string): void {
  const problem = queueNameProblem(queue);
  if (problem === undefined) return;
  throw new UsageError(
    `${where} ${JSON.stringify(queue)} is not a queue's name: ${problem}. The fleet's Redis goes to --store (agentry worker: --redis) or AGENTRY_REDIS_URL, the queue's name to --queue: e.g. --store redis://host:6379/0 --queue agentry.`,
  );
}
