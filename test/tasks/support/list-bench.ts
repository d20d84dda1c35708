// Measures WorkspaceTaskStore.list over 10,000 records (not a timed test; run by hand):
//   npx node test/tasks/support/list-bench.ts [files=100]
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { serializeTaskFile } from "../../../src/tasks/task-file.ts";
import type { TaskRecord } from "../../../src/tasks/task-record.ts";
import { WorkspaceTaskStore } from "../../../src/tasks/workspace-task-store.ts";

const TOTAL = 10_000;
const files = Number(process.argv[2] ?? 100);
const workspace = await mkdtemp(join(tmpdir(), "agentry-tasks-bench-"));
const statuses = ["PENDING", "RUNNING", "COMPLETED", "FAILED", "CANCELLED"] as const;
try {
  for (let f = 0; f < files; f++) {
    const agent = `agent-${f % 10}`;
    const session = `session-${f}`;
    const records: TaskRecord[] = Array.from({ length: TOTAL / files }, (_, i) => {
      const n = f * (TOTAL / files) + i;
      const at = new Date(Date.UTC(2025, 0, 1) + n * 997).toISOString();
      return {
        taskId: `sub-${n}`,
        agentType: "explore",
        parentAgentId: agent,
        parentSessionId: session,
        childSessionId: `sub-${n}`,
        description: "Find where the config is loaded",
        status: statuses[n % 5]!,
        result: "The config is loaded in src/cli/config/load-config.ts via loadConfig().",
        cancelRequested: false,
        createdAt: at,
        updatedAt: at,
        owner: "host:1234",
        usage: { input: 12000, output: 800, cacheRead: 9000, cacheWrite: 0, cost: 0.02 },
        model: "anthropic:claude-haiku-4-5",
        agentPath: ["main", `explore-${n}`],
        background: true,
      };
    });
    const dir = join(workspace, ".agentry/agents", agent, "tasks");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${session}.json`), serializeTaskFile(records));
  }
  await sleep(200); // past the cache's racy window, as in a long-running process
  const store = new WorkspaceTaskStore({ workspace });
  const time = async (label: string, run: () => Promise<unknown>) => {
    const started = performance.now();
    const result = await run();
    const size = Array.isArray(result) ? ` (${result.length} records)` : "";
    console.log(`${label.padEnd(44)} ${(performance.now() - started).toFixed(1).padStart(7)} ms${size}`);
  };
  console.log(`${TOTAL} records in ${files} files`);
  await time("list() cold (read + parse + validate)", () => store.list());
  await time("list() warm (stat only)", () => store.list());
  await time("list({ status: RUNNING, limit: 10 }) warm", () => store.list({ status: "RUNNING", limit: 10 }));
  await time("list({ parentSessionId }) warm", () => store.list({ parentSessionId: "session-7" }));
  await time("get(id) warm", () => store.get(`sub-${TOTAL - 1}`));
  const fresh = new WorkspaceTaskStore({ workspace });
  await time("get(id) cold, new store (full scan)", () => fresh.get(`sub-${TOTAL - 1}`));
  await time("update(id) (lock + rewrite one file)", () =>
    store.update(`sub-${TOTAL - 2}`, { description: "x" }),
  );
} finally {
  await rm(workspace, { recursive: true, force: true });
}
