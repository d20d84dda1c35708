import { SAFE_ID } from "../safe-id.ts";

/**
 * Where the Redis backend keeps records, under a prefix (default `agentry`):
 *
 * - `<prefix>:tasks:session:<parentAgentId>:<parentSessionId>` — a hash `{ text, rev }`: `text` is the
 *   session's records in the workspace file's format (`task-file.ts`), `rev` counts its writes;
 * - `<prefix>:tasks:sessions` — a set of those keys (what `list` reads);
 * - `<prefix>:tasks:index` — a hash task id → session key (what `get` reads first);
 * - `<prefix>:tasks:changed` — the channel each write publishes `{"ids":[…]}` on.
 *
 * Ids match `SAFE_ID`, which has no `:`, so a key names exactly one session.
 */
export interface RedisTaskKeys {
  session(parentAgentId: string, parentSessionId: string): string;
  /** The parent agent and session of a session key, or undefined for a key of another shape. */
  parse(key: string): { parentAgentId: string; parentSessionId: string } | undefined;
  sessions: string;
  index: string;
  changed: string;
}

export const DEFAULT_REDIS_PREFIX = "agentry";

export function redisTaskKeys(prefix = DEFAULT_REDIS_PREFIX): RedisTaskKeys {
  const session = `${prefix}:tasks:session:`;
  return {
    session: (parentAgentId, parentSessionId) => `${session}${parentAgentId}:${parentSessionId}`,
    parse(key) {
      if (!key.startsWith(session)) return undefined;
      const [parentAgentId, parentSessionId, ...rest] = key.slice(session.length).split(":");
      if (parentAgentId === undefined || parentSessionId === undefined || rest.length > 0) return undefined;
      if (!SAFE_ID.test(parentAgentId) || !SAFE_ID.test(parentSessionId)) return undefined;
      return { parentAgentId, parentSessionId };
    },
    sessions: `${prefix}:tasks:sessions`,
    index: `${prefix}:tasks:index`,
    changed: `${prefix}:tasks:changed`,
  };
}
