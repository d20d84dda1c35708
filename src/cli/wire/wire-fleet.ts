import type { ChildPlacement } from "../../subagents/child-placement.ts";
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
  close(): Promise<void>;
}

/**
 * The run's fleet, from `--store`/`AGENTRY_REDIS_URL`/`fleet.redis` and `--queue`/`fleet.queue`: task records on Redis, and
 * children on its queue. Redis that cannot be reached fails now, before any model is called.
 */
export async function wireFleet(
  flags: FleetFlags,
  env: Env,
  configured: FleetSettings,
  warn: (message: string) => void,
): Promise<WiredFleet> {
  const url = storeUrl(flags.store, env, configured.redis);
  const queue = flags.queue ?? configured.queue;
  if (url === undefined) {
    if (queue !== undefined)
      throw new UsageError(
        "A queue (--queue or fleet.queue) needs the fleet's Redis: give --store redis://host:port/db, set AGENTRY_REDIS_URL or fleet.redis in your user config.",
      );
    return { close: async () => {} };
  }
  const { RedisTaskStore } = await import("../../tasks/redis-task-store.ts");
  const taskStore = await RedisTaskStore.connect(url);
  if (queue === undefined) return { taskStore, close: () => taskStore.close() };
  try {
    const { FleetClient } = await import("../../queue/fleet-client.ts");
    const { fleetKeyFromEnv } = await import("../../queue/fleet-key.ts");
    const key = fleetKeyFromEnv(env);
    const client = await FleetClient.open({
      url,
      queue,
      warn: (message) => warn(message),
      ...(key === undefined ? {} : { key }),
    });
    await client.ready();
    const { queuePlacement } = await import("../../queue/queue-placement.ts");
    return {
      taskStore,
      placement: queuePlacement(client),
      async close() {
        await client.close();
        await taskStore.close();
      },
    };
  } catch (error) {
    await taskStore.close();
    throw error;
  }
}
