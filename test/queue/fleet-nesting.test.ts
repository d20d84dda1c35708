import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import type { TaskRecord } from "../../src/tasks/task-record.ts";
import {
  type CliResult,
  finished,
  makeWorkspace,
  runCli,
  spawnCli,
  type TestWorkspace,
} from "../cli/support/cli-process.ts";
import { providerEnv } from "../cli/support/provider-env.ts";
import { wireMessages, wireTexts, wireToolNames } from "../subagents/support/subagent-harness.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import { until } from "../support/processes.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";
import type { ServerReply } from "../support/server-reply.ts";
import { startWorkerProcess } from "./support/fleet-harness.ts";

// Children of queued children: a parent `agentry run --queue` whose children run on `agentry worker`
// processes and start children of their own there. The tree's limits come from the parent's config
// (the workers have none), so they hold on the workers only because they travel with the jobs; the
// children work in the parent's workspace, which the workers see at the same path (one machine).

interface Worker {
  process: ChildProcess;
  exit: Promise<CliResult>;
  log(): string;
}

/** What the model server saw of one agent's requests. */
interface Seen {
  prompt: string;
  tools: string[];
  texts: string[];
}

describeWith(
  REDIS,
  "queued children start children of their own; the tree's limits hold across machines",
  () => {
    let redis: RedisServer;
    let server: ModelServer;
    let ws: TestWorkspace;
    let env: Record<string, string>;
    let queue: string;
    let workers: Worker[] = [];
    let requests: Seen[] = [];
    /** The children's first answers wait until this many children asked (so each is on its own worker). */
    let together = 1;

    beforeAll(async () => {
      redis = await startRedisServer();
      server = await startModelServer((request) => answer(request));
    });
    afterAll(async () => {
      await server?.close();
      await redis?.stop();
    });
    afterEach(async () => {
      for (const worker of workers) worker.process.kill("SIGKILL");
      await Promise.all(workers.map((worker) => worker.exit));
      workers = [];
    });

    /**
     * `nest <children> <grandchildren each> [extra]`: the root starts the children (on the workers), each
     * starts its grandchildren; `extra`: the root then asks for one child more. A grandchild writes a
     * file it may write and one the project's rules deny, then reports.
     */
    async function answer(request: RecordedRequest): Promise<ServerReply> {
      const messages = wireMessages(request.body);
      const texts = messages.flatMap(wireTexts);
      const prompt = texts[0] ?? "";
      const turn = messages.filter((message) => message.role === "assistant").length;
      requests.push({ prompt, tools: wireToolNames(request.body), texts });
      const root = /^nest (\d+) (\d+)( extra)?$/.exec(prompt);
      if (root) {
        const [, children, grandchildren, extra] = root;
        if (turn === 0)
          return {
            toolCalls: Array.from({ length: Number(children) }, (_, index) =>
              task(`child-${index} grand ${grandchildren}`),
            ),
          };
        if (turn === 1 && extra) return { toolCalls: [task("child-extra grand 0")] };
        return { text: `root saw: ${texts.slice(1).join(" | ")}` };
      }
      const child = /^(child-\S+) grand (\d+)$/.exec(prompt);
      if (child) {
        const [, name, grandchildren] = child;
        if (turn > 0) return { text: `${name} got: ${texts.slice(1).join(" | ")}` };
        await until(() => new Set(asked("child-")).size >= together, 30_000);
        return {
          toolCalls: Array.from({ length: Number(grandchildren) }, (_, index) =>
            task(`grand-${name?.slice("child-".length)}-${index}`),
          ),
        };
      }
      if (turn > 0) return { text: `${prompt} done` };
      return {
        toolCalls: [
          { name: "write", args: { path: `${prompt}.txt`, content: `by ${prompt}\n` } },
          { name: "write", args: { path: `narrow-${prompt}.txt`, content: "denied\n" } },
        ],
      };
    }

    const task = (prompt: string) => ({
      name: "task",
      args: { description: prompt, prompt, subagent_type: "general-purpose" },
    });

    /** The prompts of the agents whose first prompt starts so that asked so far. */
    const asked = (prefix: string) =>
      requests.filter((seen) => seen.prompt.startsWith(prefix)).map((seen) => seen.prompt);

    async function setUp(subagents: Record<string, number>) {
      ws = await makeWorkspace();
      queue = `q${randomBytes(4).toString("hex")}`;
      env = { ...ws.env, ...providerEnv(server, "anthropic"), AGENTRY_REDIS_URL: redis.url };
      requests = [];
      await ws.userConfig({ subagents });
      // The project is not trusted: its rules only narrow (`narrowOnly`), at every depth.
      await ws.write("agentry.json", JSON.stringify({ permission: { edit: { "narrow-*": "deny" } } }));
    }

    const startWorker = (name: string, concurrency: number): Promise<Worker> =>
      startWorkerProcess(
        join(ws.dir, "..", name),
        ["--queue", queue, "--concurrency", String(concurrency), "--lock-timeout", "2"],
        env,
        workers,
      );

    const parent = (prompt: string) =>
      finished(
        spawnCli(["run", "--queue", queue, "--permission-mode", "bypass", prompt], { cwd: ws.dir, env }),
      );

    async function records(): Promise<TaskRecord[]> {
      const listed = await runCli(["tasks", "list", "--json", "--store", redis.url], {
        cwd: join(ws.dir, ".."),
        env: { ...env, AGENTRY_REDIS_URL: "" },
      });
      expect(listed.stderr).toBe("");
      return JSON.parse(listed.stdout) as TaskRecord[];
    }

    it("a child on a worker starts children there: their results reach it, they stop at the depth limit, and the job's rules narrow them", async () => {
      await setUp({ maxDepth: 2 });
      const [worker] = [await startWorker("machine-a", 1)];

      const result = await parent("nest 1 2");

      expect(result.stderr).not.toMatch(/unexpected|internal error/i);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("child-0 got:");
      expect(result.stdout).toContain("grand-0-0 done");
      expect(result.stdout).toContain("grand-0-1 done");
      expect(worker?.log()).toMatch(/job \S+ main\/general-purpose-1 completed/);
      // The child (depth 1 of 2) has the spawn tools on the worker; its children (depth 2) have none.
      const child = requests.filter((seen) => seen.prompt.startsWith("child-"));
      const grandchildren = requests.filter((seen) => seen.prompt.startsWith("grand-"));
      expect(child.every((seen) => seen.tools.includes("task"))).toBe(true);
      expect(grandchildren).toHaveLength(4);
      expect(grandchildren.every((seen) => !seen.tools.some((tool) => tool.startsWith("task")))).toBe(true);
      // The project's deny came with the job and still holds two levels down; its allowed write landed.
      for (const name of ["grand-0-0", "grand-0-1"]) {
        expect(await ws.read(`${name}.txt`)).toBe(`by ${name}\n`);
        expect(existsSync(join(ws.dir, `narrow-${name}.txt`))).toBe(false);
      }
      // Their records are in the fleet's store, under the child that started them.
      const all = await records();
      const queued = all.find((record) => record.ref?.kind === "queue" && record.ref.queue === queue);
      expect(queued).toMatchObject({ status: "COMPLETED" });
      const below = all.filter((record) => record.parentSessionId === queued?.childSessionId);
      expect(below.map((record) => record.status)).toEqual(["COMPLETED", "COMPLETED"]);
    }, 120_000);

    it("maxDescendants 3 holds across machines: two children on two workers get one grandchild between them, and the parent none more", async () => {
      await setUp({ maxDepth: 2, maxDescendants: 3 });
      together = 2;
      const [first, second] = [await startWorker("machine-a", 1), await startWorker("machine-b", 1)];

      const result = await parent("nest 2 2 extra");

      together = 1;
      expect(result.code).toBe(0);
      // Both children ran at once, one on each worker (each takes one job at a time).
      expect(first?.log()).toMatch(/job \S+ main\/general-purpose-\d completed/);
      expect(second?.log()).toMatch(/job \S+ main\/general-purpose-\d completed/);
      // Four grandchildren asked for, one place left after the parent's two children: one started.
      expect(new Set(asked("grand-")).size).toBe(1);
      const refusals = (texts: readonly string[]) =>
        texts.filter((text) => text.includes("limit per run (maxDescendants 3)")).length;
      const childEnds = requests.filter((seen) => seen.prompt.startsWith("child-") && seen.texts.length > 1);
      expect(childEnds.reduce((sum, seen) => sum + refusals(seen.texts), 0)).toBe(3);
      // The parent's own count includes the grandchild started on a worker: its third child is refused.
      expect(asked("child-extra")).toEqual([]);
      const rootEnd = requests.filter((seen) => seen.prompt === "nest 2 2 extra").at(-1);
      expect(refusals(rootEnd?.texts.slice(-1) ?? [])).toBe(1);
    }, 120_000);
  },
);
