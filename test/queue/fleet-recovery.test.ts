import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { jobKeys } from "../../src/queue/fleet-keys.ts";
import { keepResult } from "../../src/queue/job-data.ts";
import { FleetClient } from "../../src/queue/parent/fleet-client.ts";
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
import { waitFor } from "../support/processes.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";
import type { ServerReply } from "../support/server-reply.ts";

// What a fleet does when its parts fail, with real processes: a Redis of the test's own, `agentry
// worker` processes, a parent `agentry run --queue`, and the test model server, which counts what each
// child asks. Every bound below only catches a hang; no assertion decides by elapsed time.

const LOCK_S = 2;

interface Worker {
  process: ChildProcess;
  exit: Promise<CliResult>;
  log(): string;
}

describeWith(REDIS, "a fleet recovers: lost locks, a killed parent, no worker, a Redis restart", () => {
  let server: ModelServer;
  let redis: RedisServer;
  let ws: TestWorkspace;
  let env: Record<string, string>;
  let queue: string;
  let workers: Worker[] = [];
  /** How a child answers its `call`-th request (1-based, per prompt); the root is scripted below. */
  let child: (prompt: string, call: number, texts: string[]) => ServerReply | Promise<ServerReply>;
  const calls = new Map<string, number>();
  const extraRedis: RedisServer[] = [];

  beforeAll(async () => {
    server = await startModelServer((request) => answer(request));
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    for (const worker of workers) {
      worker.process.kill("SIGCONT");
      worker.process.kill("SIGKILL");
    }
    await Promise.all(workers.map((worker) => worker.exit));
    workers = [];
    for (const other of extraRedis.splice(0)) await other.stop();
  });

  /**
   * The root: `delegate N as NAME [in background]` starts N children (`NAME-0` …) in one message; with
   * their notifications it reports what came back; otherwise it says it waits.
   */
  function answer(request: RecordedRequest): ServerReply | Promise<ServerReply> {
    const texts = wireMessages(request.body).flatMap(wireTexts);
    if (!wireToolNames(request.body).includes("task")) {
      const prompt = texts[0] ?? "";
      const call = (calls.get(prompt) ?? 0) + 1;
      calls.set(prompt, call);
      return child(prompt, call, texts);
    }
    const wanted = /^delegate (\d+) as (\w+)( in background)?$/.exec(texts[0] ?? "");
    if (wanted && texts.length === 1)
      return {
        toolCalls: Array.from({ length: Number(wanted[1]) }, (_, index) => ({
          name: "task",
          args: {
            description: `job ${index}`,
            prompt: `${wanted[2]}-${index}`,
            subagent_type: "general-purpose",
            ...(wanted[3] === undefined ? {} : { run_in_background: true }),
          },
        })),
      };
    if (texts.length > 1 && !texts.at(-1)?.includes("in the background as task_id"))
      return { text: `root saw: ${texts.join(" | ")}` };
    return { text: "waiting for my children" };
  }

  async function setUp(options: { appendonly?: boolean } = {}) {
    redis = await startRedisServer({ appendonly: options.appendonly === true });
    extraRedis.push(redis);
    ws = await makeWorkspace();
    queue = `q${randomBytes(4).toString("hex")}`;
    env = { ...ws.env, ...providerEnv(server, "anthropic"), AGENTRY_REDIS_URL: redis.url };
    calls.clear();
  }

  async function startWorker(name: string, ...more: string[]): Promise<Worker> {
    const home = join(ws.dir, "..", name);
    await mkdir(home, { recursive: true });
    const args = [
      "worker",
      "--queue",
      queue,
      "--lock-timeout",
      String(LOCK_S),
      "--stalled-check",
      "1",
      ...more,
    ];
    const process = spawnCli(args, { cwd: home, env: { ...env, HOME: home } });
    let log = "";
    process.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      log += chunk;
    });
    const worker = { process, exit: finished(process), log: () => log };
    workers.push(worker);
    await waitFor(() => log.includes("takes jobs"), 20_000, `worker ${name} to start`);
    return worker;
  }

  const parent = (prompt: string, ...more: string[]) =>
    spawnCli(["run", "--queue", queue, "--permission-mode", "bypass", ...more, prompt], { cwd: ws.dir, env });

  async function records(): Promise<TaskRecord[]> {
    const result = await runCli(["tasks", "list", "--json", "--store", redis.url], {
      cwd: join(ws.dir, ".."),
      env: { ...env, AGENTRY_REDIS_URL: "" },
    });
    return (JSON.parse(result.stdout) as TaskRecord[]).filter((record) => record.ref?.kind === "queue");
  }

  /** The requests the model server got for a child's prompt, in arrival order. */
  function requestsOf(prompt: string): RecordedRequest[] {
    return server.requests.filter(
      (request) =>
        !wireToolNames(request.body).includes("task") &&
        wireMessages(request.body).flatMap(wireTexts)[0] === prompt,
    );
  }

  /** Whether two requests of one child were ever open at the model server at once. */
  function overlapped(requests: readonly RecordedRequest[]): boolean {
    const sorted = [...requests].sort((a, b) => a.startedAt - b.startedAt);
    return sorted.some((request, i) => i > 0 && request.startedAt < (sorted[i - 1]?.finishedAt ?? Infinity));
  }

  it("a worker paused past its lock (SIGSTOP) stops its child when it resumes: one run at a time, its tool once, its result delivered", async () => {
    await setUp();
    const runs = join(ws.dir, "runs.txt");
    const tool = { toolCalls: [{ name: "bash", args: { command: `echo ran >> ${runs}` } }] };
    let victim: Worker | undefined;
    child = async (prompt, call, texts) => {
      if (call === 1) {
        // Paused while its model call is answered: the answer waits in its socket, its lock runs out.
        await waitFor(() => workers.some((w) => w.log().includes("started (attempt 1)")), 10_000, "a start");
        victim = workers.find((w) => w.log().includes("started (attempt 1)"));
        victim?.process.kill("SIGSTOP");
        return { ...tool, delayMs: 200 };
      }
      return texts.length === 1 ? tool : { text: `answer to ${prompt}` };
    };
    await startWorker("a", "--allow-bypass");
    await startWorker("b", "--allow-bypass");
    const run = finished(parent("delegate 1 as paused"));

    // The other worker took the job once the lock ran out; then the paused one resumes.
    await waitFor(() => (calls.get("paused-0") ?? 0) >= 2, 30_000, "the job to start again elsewhere");
    victim?.process.kill("SIGCONT");
    const result = await run;
    await waitFor(() => victim?.log().includes("stopped here") === true, 20_000, "the paused worker to stop");

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("answer to paused-0");
    // Its first call (answered while it was paused), then the other worker's two: never two at once,
    // and the paused one asked nothing more once it resumed. (On a machine loaded enough that the first
    // worker lost its 2 s lock before it even asked, the other worker made all the calls: two.)
    const asked = requestsOf("paused-0");
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.length).toBeLessThanOrEqual(3);
    expect(overlapped(asked)).toBe(false);
    expect((await readFile(runs, "utf8")).trim().split("\n")).toEqual(["ran"]);
    expect(victim?.log()).toMatch(/stopped here: its worker did not renew the job's lock within 2000 ms/);
    expect(victim?.log()).not.toMatch(/paused-0 completed/);
    const [record] = await records();
    expect(record).toMatchObject({ status: "COMPLETED" });
  }, 90_000);

  for (const attempts of [2, 1]) {
    it(`a result its worker kept before it died is delivered and never run again (--attempts ${attempts}${attempts === 1 ? ": the job itself fails as stalled" : ""})`, async () => {
      await setUp();
      const observer = await FleetClient.open({ url: redis.url, queue });
      let kept: Promise<boolean> | undefined;
      child = async (prompt) => {
        // Its worker produced its answer and kept it under the job's lock (as `takeJob` does); then
        // it dies before BullMQ records the job's end.
        kept ??= (async () => {
          const [job] = await observer.queue.getActive();
          const jobId = job?.id ?? "";
          const lock = observer.queue.toKey(`${jobId}:lock`);
          const token = (await observer.commands.get(lock)) ?? "";
          return keepResult(observer.commands, { lock, result: jobKeys(queue, jobId).result }, token, {
            v: 2,
            outcome: {
              status: "completed",
              text: `kept answer to ${prompt}`,
              turns: 1,
              usage: usage(),
              durationMs: 5,
              sessionId: "x",
            },
            messages: [assistantText(`kept answer to ${prompt}`)],
            unread: [],
            worker: "a",
          });
        })();
        return { text: "never delivered", delayMs: 60_000 };
      };
      try {
        const first = await startWorker("a", "--attempts", String(attempts));
        const run = finished(parent(`delegate 1 as kept${attempts}`));
        await waitFor(() => kept !== undefined, 20_000, "the child's model call");
        expect(await kept).toBe(true);
        first.process.kill("SIGKILL");
        const second = await startWorker("b", "--attempts", String(attempts));
        const result = await run;

        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain(`kept answer to kept${attempts}-0`);
        expect(requestsOf(`kept${attempts}-0`)).toHaveLength(1);
        if (attempts === 2)
          expect(second.log()).toContain("completed with the result an earlier attempt kept");
        else expect(second.log()).toContain("stalled more than allowable limit");
        const [record] = await records();
        expect(record).toMatchObject({ status: "COMPLETED", result: `kept answer to kept${attempts}-0` });
      } finally {
        await observer.close();
      }
    }, 90_000);
  }

  it("kill -9 of the parent, then --resume: its queued children are followed by their jobs and delivered, none FAILED or run again", async () => {
    await setUp();
    child = (prompt) => ({ text: `answer to ${prompt}`, delayMs: 3_000 });
    await startWorker("a", "--concurrency", "4");
    const first = parent("delegate 3 as bg in background", "--output-format", "stream-json");
    let out = "";
    first.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    const exited = finished(first);
    await waitFor(() => ["bg-0", "bg-1", "bg-2"].every((p) => calls.has(p)), 30_000, "the three children");
    first.kill("SIGKILL");
    await exited;
    const sessionId = (JSON.parse(out.split("\n")[0] ?? "{}") as { sessionId?: string }).sessionId ?? "";

    const resumed = await finished(parent("what came back?", "--resume", sessionId));

    expect(resumed.code, resumed.stderr).toBe(0);
    for (const index of [0, 1, 2]) {
      expect(resumed.stdout).toContain(`answer to bg-${index}`);
      expect(requestsOf(`bg-${index}`)).toHaveLength(1);
    }
    expect(resumed.stderr).toMatch(
      /following 3 tasks that outlived the process that started them: sub-\S+ \(job \S+ on queue/,
    );
    const after = await records();
    expect(after.map((record) => record.status)).toEqual(["COMPLETED", "COMPLETED", "COMPLETED"]);
  }, 90_000);

  it("the last worker killed mid-child: the parent says no worker is left at once and, with none back within its bound, fails the child saying why", async () => {
    await setUp();
    await ws.userConfig({ fleet: { noWorkerTimeoutMs: 4_000 } });
    child = () => ({ text: "never delivered", delayMs: 60_000 });
    const only = await startWorker("a");
    const run = parent("delegate 1 as orphan");
    let stderr = "";
    run.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = finished(run);
    await waitFor(() => calls.has("orphan-0"), 20_000, "the child's model call");
    only.process.kill("SIGKILL");
    await waitFor(() => stderr.includes("no worker is taking jobs"), 30_000, "the parent to say so");
    const result = await exited;

    expect(result.code, result.stderr).toBe(0);
    expect(stderr).toMatch(
      new RegExp(
        `no worker is taking jobs from queue "${queue}" at redis://127\\.0\\.0\\.1:\\d+/0: 1 queued child waits for one \\(start one with \`agentry worker --redis [^\`]+ --queue ${queue}\`\\); they fail if none comes within 4\\.0s`,
      ),
    );
    expect(result.stdout).toContain(`no worker took jobs from queue "${queue}"`);
    const [record] = await records();
    expect(record).toMatchObject({ status: "FAILED" });
    expect(record?.error).toContain("no worker took jobs");
  }, 90_000);

  it("the last worker killed mid-child, then a new one: the parent says both, and the child's result arrives", async () => {
    await setUp();
    // Its second run answers after a while, so the parent sees the new worker while it waits.
    child = (prompt, call) =>
      call === 1
        ? { text: "never delivered", delayMs: 60_000 }
        : { text: `answer to ${prompt}`, delayMs: 6_000 };
    const only = await startWorker("a");
    const run = parent("delegate 1 as rescued");
    let stderr = "";
    run.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = finished(run);
    await waitFor(() => calls.has("rescued-0"), 20_000, "the child's model call");
    only.process.kill("SIGKILL");
    await waitFor(() => stderr.includes("no worker is taking jobs"), 30_000, "the parent to say so");
    await startWorker("b");
    const result = await exited;

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("answer to rescued-0");
    expect(stderr, stderr).toContain(
      `a worker takes jobs from queue "${queue}" again: 1 queued child goes on`,
    );
    const [record] = await records();
    expect(record).toMatchObject({ status: "COMPLETED" });
  }, 90_000);

  it("Redis restarted with its data kept (appendonly): the parent rides it out and every child's result arrives", async () => {
    await setUp({ appendonly: true });
    child = (prompt) => ({ text: `answer to ${prompt}`, delayMs: 1_500 });
    await startWorker("a", "--concurrency", "2");
    const run = parent("delegate 2 as aof");
    let stderr = "";
    run.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = finished(run);
    await waitFor(() => calls.has("aof-0") && calls.has("aof-1"), 20_000, "both children's model calls");
    // Down longer than the workers' locks and the old 5 s rule; up again with everything it had.
    await redis.stop();
    await sleep(6_000);
    await redis.restart();
    const result = await exited;

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("answer to aof-0");
    expect(result.stdout).toContain("answer to aof-1");
    expect(stderr).toMatch(
      /lost the connection to Redis at redis:\/\/\S+: 2 queued children wait for it to come back \(up to 1m; fleet\.lostAfterMs\)/,
    );
    expect(stderr).toMatch(/Redis at redis:\/\/\S+ is back after/);
    expect((await records()).map((record) => record.status)).toEqual(["COMPLETED", "COMPLETED"]);
    // A child whose worker lost its lock while Redis was down ran again after it: never at once.
    expect(overlapped(requestsOf("aof-0"))).toBe(false);
    expect(overlapped(requestsOf("aof-1"))).toBe(false);
  }, 90_000);

  it("Redis restarted without its data: the parent says its job is gone instead of waiting for it", async () => {
    await setUp();
    child = () => ({ text: "never delivered", delayMs: 60_000 });
    await startWorker("a");
    const run = finished(parent("delegate 1 as forgotten"));
    await waitFor(() => calls.has("forgotten-0"), 20_000, "the child's model call");
    await redis.restart();
    const result = await run;

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /Redis at redis:\/\/\S+ came back without its job \S+: it kept none of the fleet's data across its restart/,
    );
  }, 90_000);
});

function usage() {
  return { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };
}

function assistantText(text: string) {
  return {
    role: "assistant" as const,
    content: [{ type: "text" as const, text }],
    stopReason: "stop" as const,
    usage: usage(),
    model: "anthropic:claude-sonnet-4-5",
  };
}
