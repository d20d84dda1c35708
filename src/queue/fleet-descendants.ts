import type { Redis } from "ioredis";
import type { DescendantCount } from "../subagents/placement.ts";

/** How long a tree's count of descendants is kept after its last change (a week). */
const TREE_TTL_S = 7 * 24 * 60 * 60;

/** KEYS: the tree's count. ARGV: its cap, ttl. 1 when one more fits (counted), else 0. */
const RESERVE = `
local n = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
if n > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return 0
end
return 1
`;

/** KEYS: the tree's count. One fewer, never below 0. */
const RELEASE = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 1
`;

/**
 * A tree's descendants counted on the fleet's Redis (`<prefix>:tree:<id>:descendants`), by its parent
 * and by every worker that runs one of its children, in one script each so two machines never both
 * take the last place: `maxDescendants` holds across machines. A Redis that does not answer refuses the
 * child (fail closed: the cap cannot be checked).
 */
export function fleetDescendants(commands: Redis, prefix: string, treeId: string): DescendantCount {
  const key = `${prefix}:tree:${treeId}:descendants`;
  return {
    treeId,
    reserve: async (max) => (await commands.eval(RESERVE, 1, key, max, TREE_TTL_S)) === 1,
    release: async () => {
      await commands.eval(RELEASE, 1, key);
    },
  };
}
