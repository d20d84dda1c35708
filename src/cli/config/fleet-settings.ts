import type { LoadedConfig } from "./load-config.ts";

/** `fleet` of the user's config: the Redis of task records and queued children, and the queue. */
export interface FleetSettings {
  redis?: string;
  queue?: string;
  /** How long queued children wait for a Redis that went away. */
  lostAfterMs?: number;
  /** How long queued children wait when no worker is left on their queue. */
  noWorkerTimeoutMs?: number;
}

/**
 * Only the user's config says where a fleet is: a project's `fleet` would send the conversation and
 * the workspace to a server the repository chose (`confineProjectConfig` withholds it, trusted or not).
 */
export function fleetSettings(loaded: LoadedConfig): FleetSettings {
  const { redis, queue, lostAfterMs, noWorkerTimeoutMs } = loaded.user?.config.fleet ?? {};
  return {
    ...(redis === undefined ? {} : { redis }),
    ...(queue === undefined ? {} : { queue }),
    ...(lostAfterMs === undefined ? {} : { lostAfterMs }),
    ...(noWorkerTimeoutMs === undefined ? {} : { noWorkerTimeoutMs }),
  };
}
