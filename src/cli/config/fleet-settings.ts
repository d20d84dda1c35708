import type { LoadedConfig } from "./load-config.ts";

/** `fleet` of the user's config: the Redis of task records and queued children, and the queue. */
export interface FleetSettings {
  redis?: string;
  queue?: string;
}

/**
 * Only the user's config says where a fleet is: a project's `fleet` would send the conversation and
 * the workspace to a server the repository chose (`confineProjectConfig` withholds it, trusted or not).
 */
export function fleetSettings(loaded: LoadedConfig): FleetSettings {
  const user = loaded.user?.config.fleet ?? {};
  return {
    ...(user.redis === undefined ? {} : { redis: user.redis }),
    ...(user.queue === undefined ? {} : { queue: user.queue }),
  };
}
