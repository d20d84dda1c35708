import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { currentOwner } from "../../src/tasks/owner.ts";
import { serializeTaskFile } from "../../src/tasks/stored/task-file.ts";
import type { TaskRecord, TaskStatus } from "../../src/tasks/task-record.ts";

const FINISHED: TaskStatus[] = ["COMPLETED", "FAILED", "CANCELLED"];

/**
 * Writes `total` TaskRecords spread over `files` parent sessions (10 parent agents) straight into a
 * workspace's `.agentry/agents/*\/tasks/*.json`, as years of runs would leave them: almost all
 * finished, with results and usage. One in a hundred is RUNNING, owned by this (live) process with a
 * fresh heartbeat, so a sweeper run by a reader finds nothing to repair and every run reads alike.
 */
export async function writeTaskFixture(
  workspace: string,
  total: number,
  files: number,
): Promise<TaskRecord[]> {
  const perFile = Math.ceil(total / files);
  const now = new Date().toISOString();
  const all: TaskRecord[] = [];
  for (let f = 0; f < files; f++) {
    const agent = `agent-${f % 10}`;
    const session = `session-${f}`;
    const records: TaskRecord[] = [];
    for (let i = 0; i < perFile && f * perFile + i < total; i++) {
      const n = f * perFile + i;
      const at = new Date(Date.UTC(2025, 0, 1) + n * 997).toISOString();
      const running = n % 100 === 99;
      records.push({
        taskId: `sub-${n}`,
        agentType: "explore",
        parentAgentId: agent,
        parentSessionId: session,
        childSessionId: `sub-${n}`,
        description: "Find where the config is loaded",
        status: running ? "RUNNING" : FINISHED[n % 3]!,
        ...(running
          ? {}
          : { result: "The config is loaded in src/cli/config/load-config.ts via loadConfig()." }),
        cancelRequested: false,
        createdAt: at,
        updatedAt: running ? now : at,
        owner: running ? currentOwner() : "host:1234",
        usage: { input: 12000, output: 800, cacheRead: 9000, cacheWrite: 0, cost: 0.02 },
        model: "anthropic:claude-haiku-4-5",
        agentPath: ["main", `explore-${n}`],
        background: true,
      });
    }
    const dir = join(workspace, ".agentry/agents", agent, "tasks");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${session}.json`), serializeTaskFile(records));
    all.push(...records);
  }
  return all;
}
