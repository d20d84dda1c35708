import { Option } from "commander";
import type { Env } from "./config/config-locations.ts";

/** `--store`, as `run` and `tasks` take it. */
export const storeOption = () =>
  new Option(
    "--store <url>",
    "keep task records on Redis (redis://host:port/db), shared by every machine of a fleet (default: AGENTRY_REDIS_URL, else the workspace's .agentry/)",
  );

/** `--queue`, as `run` takes it. */
export const queueOption = () =>
  new Option(
    "--queue <name>",
    "run subagents as jobs on this Redis queue (agentry worker's default: agentry), which `agentry worker` processes take; needs --store or AGENTRY_REDIS_URL",
  );

/**
 * The Redis of the fleet: `--store`, else `AGENTRY_REDIS_URL`, else the user config's `fleet.redis`;
 * undefined keeps the workspace's store.
 */
export function storeUrl(flag: string | undefined, env: Env, configured?: string): string | undefined {
  const value = flag ?? (env.AGENTRY_REDIS_URL?.trim() ? env.AGENTRY_REDIS_URL : undefined) ?? configured;
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
