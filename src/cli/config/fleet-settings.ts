import type { LoadedConfig } from "./load-config.ts";

/** `fleet` of the user's config: the Redis of task records and queued children, and the queue. */
export interface FleetSettings {
  redis?: string;
  queue?: string;
}

/**
 * Only the user's config says where a fleet is: a project's `fleet` would send the conversation and
 * the workspace to a server the repository chose, so it is ignored, with a warning.
 */
export function fleetSettings(loaded: LoadedConfig, warnings: string[]): FleetSettings {
  if (loaded.project?.config.fleet !== undefined)
    warnings.push(
      `${loaded.project.label}: fleet ignored: a project's config cannot send work to a Redis or a queue; set fleet in your user config (${loaded.user?.label ?? "~/.config/agentry/config.json"}), or use --store/--queue`,
    );
  const user = loaded.user?.config.fleet ?? {};
  return {
    ...(user.redis === undefined ? {} : { redis: user.redis }),
    ...(user.queue === undefined ? {} : { queue: user.queue }),
  };
}
