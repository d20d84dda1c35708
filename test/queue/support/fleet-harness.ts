import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { TaskRecord } from "../../../src/tasks/task-record.ts";
import {
  type CliResult,
  finished,
  makeWorkspace,
  runCli,
  spawnCli,
  type TestWorkspace,
} from "../../cli/support/cli-process.ts";
import { providerEnv } from "../../cli/support/provider-env.ts";
import { wireMessages, wireTexts, wireToolNames } from "../../subagents/support/subagent-harness.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { waitFor } from "../../support/processes.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";
import type { ServerReply } from "../../support/server-reply.ts";

// A fleet of real processes for the tests of what it does when its parts fail: a Redis of the test's
// own, `agentry worker` processes, a parent `agentry run --queue`, and the test model server, which
// counts what each child asks. The tests are split over several files so they run side by side.

/** The workers' lock, in seconds: short, so a lost lock is seen soon. */
export const LOCK_S = 2;

export interface FleetWorker {
  process: ChildProcess;
  exit: Promise<CliResult>;
  log(): string;
}

/** How a child answers its `call`-th request (1-based, per prompt); the root is scripted. */
export type ChildAnswer = (
  prompt: string,
  call: number,
  texts: string[],
) => ServerReply | Promise<ServerReply>;

export interface FleetHarness {
  readonly redis: RedisServer;
  readonly ws: TestWorkspace;
  readonly queue: string;
  readonly workers: readonly FleetWorker[];
  /** How many requests each child prompt made. */
  readonly calls: ReadonlyMap<string, number>;
  child: ChildAnswer;
  /** A Redis, a workspace and a queue of the test's own. */
  setUp(options?: { appendonly?: boolean }): Promise<void>;
  startWorker(name: string, ...more: string[]): Promise<FleetWorker>;
  /** `agentry run --queue` with the root's prompt. */
  parent(prompt: string, ...more: string[]): ChildProcess;
  /** The queued children's records, as a third process lists them. */
  records(): Promise<TaskRecord[]>;
  /** The requests the model server got for a child's prompt, in arrival order. */
  requestsOf(prompt: string): RecordedRequest[];
  /**
   * `waitFor` whose timeout says where the fleet stood: the children's calls so far, the parent's
   * stderr and each worker's log (a stuck fleet and a slow one read differently).
   */
  waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void>;
}

/**
 * Registers the hooks of one describe block (a model server for the block; workers and Redis servers
 * ended after each test) and returns the fleet its tests drive.
 *
 * The root: `delegate N as NAME [in background]` starts N children (`NAME-0` …) in one message; with
 * their notifications it reports what came back; otherwise it says it waits.
 */
export function fleetHarness(): FleetHarness {
  let server: ModelServer | undefined;
  let redis: RedisServer | undefined;
  let ws: TestWorkspace | undefined;
  let env: Record<string, string> = {};
  let queue = "";
  const workers: FleetWorker[] = [];
  const calls = new Map<string, number>();
  const redisServers: RedisServer[] = [];
  let parentStderr = "";
  let child: ChildAnswer = () => ({ text: "no answer scripted" });

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
    workers.length = 0;
    for (const other of redisServers.splice(0)) await other.stop();
  });

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not set up: call setUp() first`);
    return value;
  };

  return {
    get redis() {
      return ready(redis, "Redis");
    },
    get ws() {
      return ready(ws, "the workspace");
    },
    get queue() {
      return queue;
    },
    workers,
    calls,
    get child() {
      return child;
    },
    set child(next: ChildAnswer) {
      child = next;
    },

    async setUp(options = {}) {
      const model = ready(server, "The model server");
      redis = await startRedisServer({ appendonly: options.appendonly === true });
      redisServers.push(redis);
      ws = await makeWorkspace();
      queue = `q${randomBytes(4).toString("hex")}`;
      env = { ...ws.env, ...providerEnv(model, "anthropic"), AGENTRY_REDIS_URL: redis.url };
      calls.clear();
    },

    async startWorker(name, ...more) {
      const home = join(ready(ws, "the workspace").dir, "..", name);
      const args = ["--queue", queue, "--lock-timeout", String(LOCK_S), "--stalled-check", "1", ...more];
      return startWorkerProcess(home, args, env, workers);
    },

    parent(prompt, ...more) {
      const run = spawnCli(["run", "--queue", queue, "--permission-mode", "bypass", ...more, prompt], {
        cwd: ready(ws, "the workspace").dir,
        env,
      });
      parentStderr = "";
      run.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
        parentStderr += chunk;
      });
      return run;
    },

    async records() {
      const result = await runCli(["tasks", "list", "--json", "--store", ready(redis, "Redis").url], {
        cwd: join(ready(ws, "the workspace").dir, ".."),
        env: { ...env, AGENTRY_REDIS_URL: "" },
      });
      return (JSON.parse(result.stdout) as TaskRecord[]).filter((record) => record.ref?.kind === "queue");
    },

    requestsOf(prompt) {
      return ready(server, "The model server").requests.filter(
        (request) =>
          !wireToolNames(request.body).includes("task") &&
          wireMessages(request.body).flatMap(wireTexts)[0] === prompt,
      );
    },

    async waitFor(check, timeoutMs, what) {
      try {
        await waitFor(check, timeoutMs, what);
      } catch (error) {
        const state = [
          `the children's model calls so far: ${JSON.stringify(Object.fromEntries(calls))}`,
          `the model server's requests: ${server?.requests.length ?? 0}`,
          `the parent's stderr:\n${parentStderr}`,
          ...workers.map((worker, index) => `worker ${index}'s log:\n${worker.log()}`),
        ];
        throw new Error(`${(error as Error).message}\n${state.join("\n")}`);
      }
    },
  };
}

/**
 * `agentry worker <args>` with `home` (created) as its folder and HOME, added to `workers` (which the
 * caller ends after its test), once it says it takes jobs.
 */
export async function startWorkerProcess(
  home: string,
  args: readonly string[],
  env: Record<string, string>,
  workers: FleetWorker[],
): Promise<FleetWorker> {
  await mkdir(home, { recursive: true });
  const process = spawnCli(["worker", ...args], { cwd: home, env: { ...env, HOME: home } });
  let log = "";
  process.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    log += chunk;
  });
  const worker = { process, exit: finished(process), log: () => log };
  workers.push(worker);
  await waitFor(() => log.includes("takes jobs"), 20_000, `the worker in ${home} to start`);
  return worker;
}

/** Whether two requests of one child were ever open at the model server at once. */
export function overlapped(requests: readonly RecordedRequest[]): boolean {
  const sorted = [...requests].sort((a, b) => a.startedAt - b.startedAt);
  return sorted.some((request, i) => i > 0 && request.startedAt < (sorted[i - 1]?.finishedAt ?? Infinity));
}
