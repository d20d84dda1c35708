import { type ChildProcess, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
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
import { scaled } from "../support/time-scale.ts";
import { startWorkerProcess } from "./support/fleet-harness.ts";

// A fleet on one machine: a Redis of the test's own, a parent `agentry run --queue`, two `agentry
// worker` processes each started in its own folder (their own config, as on other machines), and a
// third process that lists and cancels tasks. The children work in the parent's workspace, which the
// workers see at the same path (a shared disk, simulated by one machine).

const CHILDREN = 12;
/** A worker's job lock: short, so a killed worker is noticed soon; scaled, so a busy one keeps its jobs. */
const LOCK_S = scaled(2_000) / 1000;

interface Worker {
  process: ChildProcess;
  exit: Promise<CliResult>;
  /** Its stderr so far (one line per job). */
  log(): string;
}

describeWith(REDIS, "a fleet: agentry run --queue, agentry worker, agentry tasks --store", () => {
  let redis: RedisServer;
  let server: ModelServer;
  let ws: TestWorkspace;
  let env: Record<string, string>;
  /** How a child answers its prompt (the tests set it); the root is scripted below. */
  let child: (prompt: string, attempt: number, texts: string[]) => ServerReply;
  let childPrompts: string[] = [];
  let workers: Worker[] = [];
  let queue: string;

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

  /** The root delegates `PROMPTS` (from its user message) at once, then reports what came back. */
  function answer(request: RecordedRequest) {
    const texts = wireMessages(request.body).flatMap(wireTexts);
    if (!wireToolNames(request.body).includes("task")) {
      const prompt = texts[0] ?? "";
      childPrompts.push(prompt);
      return child(prompt, childPrompts.filter((seen) => seen === prompt).length, texts);
    }
    const last = texts.at(-1) ?? "";
    const again = /^continue (sub-\S+)$/.exec(last);
    if (again)
      return {
        toolCalls: [{ name: "task", args: { description: "more", prompt: "and more", task_id: again[1] } }],
      };
    const wanted = /^delegate (\d+) as (\w+)(?: with ([\w-]+))?$/.exec(texts[0] ?? "");
    if (wanted && texts.length === 1)
      return {
        toolCalls: Array.from({ length: Number(wanted[1]) }, (_, index) => ({
          name: "task",
          args: {
            description: `job ${index}`,
            prompt: `${wanted[2]}-${index}`,
            subagent_type: wanted[3] ?? "explore",
          },
        })),
      };
    return { text: `root saw: ${last.length > 0 ? texts.slice(1).join(" | ") : "nothing"}` };
  }

  async function setUp() {
    ws = await makeWorkspace();
    queue = `q${randomBytes(4).toString("hex")}`;
    env = { ...ws.env, ...providerEnv(server, "anthropic"), AGENTRY_REDIS_URL: redis.url };
    childPrompts = [];
  }

  const startWorker = (name: string, ...more: string[]): Promise<Worker> =>
    startWorkerProcess(
      join(ws.dir, "..", name),
      ["--queue", queue, "--concurrency", "4", "--lock-timeout", String(LOCK_S), ...more],
      env,
      workers,
    );

  const parent = (prompt: string, ...more: string[]) =>
    spawnCli(["run", "--queue", queue, "--permission-mode", "bypass", ...more, prompt], { cwd: ws.dir, env });

  async function tasks(...args: string[]): Promise<CliResult> {
    return runCli(["tasks", ...args], { cwd: join(ws.dir, ".."), env: { ...env, AGENTRY_REDIS_URL: "" } });
  }

  async function listed(): Promise<TaskRecord[]> {
    const result = await tasks("list", "--json", "--store", redis.url);
    expect(result.stderr).toBe("");
    // The tests share one Redis: each sees the tasks of its own queue.
    return (JSON.parse(result.stdout) as TaskRecord[]).filter(
      (record) => record.ref?.kind === "queue" && record.ref.queue === queue,
    );
  }

  it(
    `delegates ${CHILDREN} worktree children to two workers without a shared disk; every result arrives; a third process lists them`,
    async () => {
      await setUp();
      // The parent's checkout, its remote a bare repository: the only thing parent and workers share.
      const remote = join(ws.dir, "..", "remote.git");
      const git = (cwd: string, ...args: string[]) =>
        execFileSync("git", ["-c", "user.email=t@e.st", "-c", "user.name=t", ...args], {
          cwd,
          encoding: "utf8",
        }).trim();
      git(join(ws.dir, ".."), "init", "-q", "--bare", remote);
      await ws.write("notes.txt", "committed note\n");
      git(ws.dir, "init", "-q");
      git(ws.dir, "add", "notes.txt");
      git(ws.dir, "commit", "-q", "-m", "init");
      git(ws.dir, "remote", "add", "origin", remote);
      await ws.write("notes.txt", "uncommitted note\n");
      child = (prompt, _attempt, texts) =>
        texts.length === 1
          ? {
              toolCalls: [
                { name: "read", args: { path: "notes.txt" } },
                { name: "write", args: { path: `out-${prompt}.txt`, content: `from ${prompt}\n` } },
              ],
            }
          : {
              text: `answer to ${prompt}: ${texts.some((text) => text.includes("uncommitted note")) ? "saw" : "missed"} the uncommitted note`,
            };
      const [first, second] = [await startWorker("machine-a"), await startWorker("machine-b")];
      const builder = {
        builder: {
          description: "Builds",
          prompt: "Build.",
          tools: ["read", "write"],
          workspace: { mode: "worktree" },
        },
      };

      const result = await finished(
        parent(`delegate ${CHILDREN} as item with builder`, "--agents", JSON.stringify(builder)),
      );

      expect(result.stderr).not.toMatch(/error/i);
      expect(result.code).toBe(0);
      for (let index = 0; index < CHILDREN; index++)
        expect(result.stdout).toContain(`answer to item-${index}: saw the uncommitted note`);
      const jobs = (log: string) => (log.match(/ completed after /g) ?? []).length;
      expect(jobs(first.log()) + jobs(second.log())).toBe(CHILDREN);
      expect(jobs(first.log())).toBeGreaterThan(0);
      expect(jobs(second.log())).toBeGreaterThan(0);
      const records = await listed();
      expect(records).toHaveLength(CHILDREN);
      expect(records.every((record) => record.status === "COMPLETED")).toBe(true);
      // Each child's work is on its own branch of the remote, made from the snapshot (uncommitted note
      // included); the parent's checkout and index are as they were.
      for (const record of records) {
        const branch = `agentry/${record.taskId}`;
        expect(result.stdout).toContain(branch);
        const files = git(remote, "ls-tree", "--name-only", branch).split("\n");
        expect(files).toContain("notes.txt");
        expect(files.filter((file) => file.startsWith("out-"))).toHaveLength(1);
        expect(git(remote, "show", `${branch}:notes.txt`)).toBe("uncommitted note");
      }
      expect(git(ws.dir, "status", "--porcelain", "--", ".", ":(exclude).agentry")).toBe("M notes.txt");
      const shown = await tasks("show", records[0]!.taskId, "--json", "--store", redis.url);
      expect(JSON.parse(shown.stdout)).toMatchObject({ status: "COMPLETED", ref: { kind: "queue", queue } });
      const missing = await tasks("show", "sub-nope", "--store", redis.url);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(`No task "sub-nope" in the fleet's store at ${redis.url}`);
      expect(git(ws.dir, "branch", "--list", "agentry/*")).toBe("");
      expect(git(ws.dir, "worktree", "list").split("\n")).toHaveLength(1);
    },
    scaled(120_000),
  );

  it(
    "a third process cancels a queued child running on a worker: it stops, and says so",
    async () => {
      await setUp();
      child = (prompt) => ({ text: `answer to ${prompt}`, delayMs: 60_000 });
      await startWorker("machine-a");
      const run = finished(parent("delegate 1 as slow"));
      expect(await until(() => childPrompts.includes("slow-0"), 20_000)).toBe(true);
      const [running] = await listed();
      expect(running).toMatchObject({ status: "RUNNING" });

      // Exit 0: the owner confirmed it within the wait (exit 1 otherwise), long before the child's answer.
      const wait = String(scaled(5_000) / 1000);
      const cancelled = await tasks("cancel", running!.taskId, "--store", redis.url, "--wait", wait);

      expect(cancelled.code, cancelled.stderr).toBe(0);
      const [after] = await listed();
      expect(after).toMatchObject({ status: "CANCELLED" });
      const result = await run;
      expect(result.code).toBe(0);
      expect(workers[0]!.log()).toMatch(/job \S+ main\/explore-1 aborted/);
    },
    scaled(60_000),
  );

  it(
    "a worker killed (-9) mid-child: the child finishes on the other worker, with exactly one result",
    async () => {
      await setUp();
      child = (prompt, attempt) => ({
        text: `answer to ${prompt} (attempt ${attempt})`,
        // The first attempt never answers before its worker is killed.
        delayMs: attempt === 1 ? 60_000 : 100,
      });
      const [first, second] = [await startWorker("machine-a"), await startWorker("machine-b")];
      const run = finished(parent("delegate 1 as fragile"));
      // Killed while its child waits for the model: mid-child.
      expect(await until(() => childPrompts.includes("fragile-0"), 20_000)).toBe(true);
      const [victim, survivor] = first.log().includes("started") ? [first, second] : [second, first];

      victim.process.kill("SIGKILL");
      const result = await run;

      expect(result.code).toBe(0);
      expect(result.stdout).toContain("answer to fragile-0 (attempt 2)");
      expect(result.stdout).not.toContain("(attempt 1)");
      expect(survivor.log()).toMatch(/started \(attempt 2\)/);
      expect((survivor.log().match(/ completed after /g) ?? []).length).toBe(1);
      const records = await listed();
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ status: "COMPLETED" });
    },
    scaled(60_000),
  );

  it(
    "a child whose worker is lost on every start it is allowed ends FAILED, saying so",
    async () => {
      await setUp();
      child = (prompt) => ({ text: `answer to ${prompt}`, delayMs: 60_000 });
      const [first, second] = [
        await startWorker("machine-a", "--attempts", "1"),
        await startWorker("machine-b", "--attempts", "1"),
      ];
      const run = finished(parent("delegate 1 as doomed"));
      expect(await until(() => childPrompts.includes("doomed-0"), 20_000)).toBe(true);
      const victim = first.log().includes("started") ? first : second;

      victim.process.kill("SIGKILL");
      const result = await run;

      expect(result.code).toBe(0);
      expect(result.stdout).toContain("its worker was lost (killed, or cut off from Redis)");
      expect(childPrompts.filter((prompt) => prompt === "doomed-0")).toHaveLength(1);
      const [record] = await listed();
      expect(record).toMatchObject({ status: "FAILED" });
      expect(record?.error).toContain("its worker was lost");
    },
    scaled(60_000),
  );

  // A retry loop would hang them: they end at the connection's timeout.
  it(
    "Redis not there: run --queue, worker and tasks --store fail at once, naming the server",
    async () => {
      await setUp();
      const gone = await startRedisServer();
      await gone.stop();
      const options = { cwd: ws.dir, env: { ...env, AGENTRY_REDIS_URL: gone.url } };
      const requestsBefore = server.requests.length;

      const results = await Promise.all([
        runCli(["run", "--queue", queue, "do it"], options),
        runCli(["worker"], options),
        runCli(["tasks", "list"], options),
      ]);

      for (const result of results) {
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`Cannot reach Redis at ${gone.url}`);
      }
      // Nothing was asked of a model: the run failed before its first call.
      expect(server.requests.length).toBe(requestsBefore);
    },
    scaled(30_000),
  );

  it(
    "the user's config names the fleet (fleet.redis, fleet.queue); a project's fleet is ignored, with a warning",
    async () => {
      await setUp();
      child = (prompt) => ({ text: `answer to ${prompt}` });
      const worker = await startWorker("machine-a");
      const userConfig = join(ws.home, ".config", "agentry", "config.json");
      await mkdir(join(userConfig, ".."), { recursive: true });
      await writeFile(userConfig, JSON.stringify({ fleet: { redis: redis.url, queue } }));
      await ws.write("agentry.json", JSON.stringify({ fleet: { redis: "redis://attacker.example:6379/0" } }));
      const { AGENTRY_REDIS_URL: _, ...withoutVariable } = env;

      const result = await finished(
        spawnCli(["run", "--permission-mode", "bypass", "delegate 1 as configured"], {
          cwd: ws.dir,
          env: withoutVariable,
        }),
      );

      expect(result.code).toBe(0);
      expect(result.stderr).toContain(
        "agentry.json: fleet ignored: a project's config cannot send work to a Redis or a queue",
      );
      expect(result.stdout).toContain("answer to configured-0");
      expect(worker.log()).toMatch(/job \S+ main\/explore-1 completed/);
    },
    scaled(60_000),
  );

  it(
    "a queued child is continued after its parent's restart (--resume): its next job carries its conversation",
    async () => {
      await setUp();
      child = (prompt, _attempt, texts) => ({
        text: texts.length === 1 ? `answer to ${prompt}` : `again, after: ${texts.join(" / ")}`,
      });
      await startWorker("machine-a");
      const first = await finished(parent("delegate 1 as kept", "--output-format", "json"));
      expect(first.code).toBe(0);
      const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
      const [record] = await listed();

      const second = await finished(parent(`continue ${record!.taskId}`, "--resume", sessionId));

      expect(second.code).toBe(0);
      expect(second.stdout).toContain("again, after: kept-0 / answer to kept-0 / and more");
      const [after] = await listed();
      expect(after).toMatchObject({ taskId: record!.taskId, status: "COMPLETED" });
    },
    scaled(60_000),
  );
  it(
    "agentry workflow run --queue: each agent() of the workflow runs on a worker",
    async () => {
      await setUp();
      const worker = await startWorker("w-flow");
      child = (prompt) => ({ text: `answer to ${prompt}` });
      await writeFile(
        join(ws.dir, "flow.js"),
        [
          'export const meta = { name: "flow", description: "two agents on the fleet" };',
          'const answers = await parallel(["flow-one", "flow-two"].map((p) => () => agent(p, { label: p })));',
          'return answers.join(" + ");',
        ].join("\n"),
      );
      const result = await runCli(
        ["workflow", "run", "flow.js", "--queue", queue, "--permission-mode", "bypass"],
        {
          cwd: ws.dir,
          env,
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain("answer to flow-one + answer to flow-two");
      expect(worker.log().match(/ started \(attempt/g)).toHaveLength(2);
      expect(childPrompts.sort()).toEqual(["flow-one", "flow-two"]);
    },
    scaled(60_000),
  );
  it(
    "with AGENTRY_FLEET_KEY a worker runs only what a parent holding the key signed, and logs why it refused the rest",
    async () => {
      await setUp();
      child = (prompt) => ({ text: `answer to ${prompt}` });
      env = { ...env, AGENTRY_FLEET_KEY: randomBytes(24).toString("hex") };
      const worker = await startWorker("keyed");
      expect(worker.log()).toContain("only jobs signed with the fleet key");

      const signed = await finished(parent("delegate 1 as signed"));
      expect(signed.stdout).toContain("answer to signed-0");

      env = { ...env, AGENTRY_FLEET_KEY: "" };
      const unsigned = await finished(parent("delegate 1 as unsigned"));
      expect(unsigned.stdout).not.toContain("answer to unsigned-0");
      expect(unsigned.stdout).toContain("this worker refused the job: it is not signed");
      expect(worker.log()).toMatch(
        /job sub-\S+ refused: it is not signed: only a parent holding the fleet's key/,
      );
      expect(childPrompts).toEqual(["signed-0"]);
    },
    scaled(60_000),
  );
});
