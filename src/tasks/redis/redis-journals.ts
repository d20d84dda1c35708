import type { Redis } from "ioredis";
import { SAFE_ID } from "../safe-id.ts";
import { TaskStoreError } from "../task-errors.ts";
import type { RunJournals } from "../task-store.ts";
import { type RedisTarget, redisCommand } from "./redis-connection.ts";

/** How long a run's journal is kept after its last line: a run may be resumed for a month. */
const JOURNAL_TTL_S = 30 * 24 * 60 * 60;

/**
 * Workflow runs' journals on the fleet's Redis (`<prefix>:journal:<runId>`, a list of lines), so a run
 * started on one machine is resumed on any other with the same `--store`. A line is stored when
 * `append` resolves.
 */
export function redisJournals(client: Redis, target: RedisTarget, prefix: string): RunJournals {
  const key = (runId: string) => {
    if (!SAFE_ID.test(runId)) throw new TaskStoreError(`Not a workflow run id: ${JSON.stringify(runId)}.`);
    return `${prefix}:journal:${runId}`;
  };
  return {
    async append(runId, lines) {
      if (lines.length === 0) return;
      const list = key(runId);
      await redisCommand(target, () =>
        client
          .multi()
          .rpush(list, ...lines)
          .expire(list, JOURNAL_TTL_S)
          .exec(),
      );
    },
    async read(runId) {
      const list = key(runId);
      const lines = await redisCommand(target, () => client.lrange(list, 0, -1));
      return lines.length === 0 ? undefined : lines;
    },
  };
}
