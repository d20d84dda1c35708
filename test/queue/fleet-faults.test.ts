import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Job } from "bullmq";
import { afterEach, expect, it } from "vitest";
import type { Model } from "../../src/model/model.ts";
import { jobResultSchema } from "../../src/queue/job-data.ts";
import { FleetClient } from "../../src/queue/parent/fleet-client.ts";
import { queueExecutor } from "../../src/queue/parent/queue-executor.ts";
import { queuePlacement } from "../../src/queue/parent/queue-placement.ts";
import { FleetWorker } from "../../src/queue/worker/fleet-worker.ts";
import { RedisUnavailableError } from "../../src/tasks/redis/redis-connection.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { testLocalChild } from "../support/local-child.ts";
import { until } from "../support/processes.ts";
import { startRedisServer } from "../support/redis-server.ts";
import { tempDir } from "../support/temp-dir.ts";
import { scaled } from "../support/time-scale.ts";

// What a fleet does when Redis, a worker or a parent goes away. Each test has its own Redis.

describeWith(REDIS, "queued children when Redis or the parent goes away", () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  });

  async function fleet(options: { leaseMs?: number; lostAfterMs?: number } = {}) {
    const redis = await startRedisServer();
    closers.push(() => redis.stop());
    const queue = `q${randomBytes(4).toString("hex")}`;
    const models = new Map<string, Model>();
    const worker = await FleetWorker.start(
      { url: redis.url, queue },
      {
        createModel: (id) => models.get(id)!,
        tools: () => [],
        commands: async () => undefined,
      },
    );
    closers.push(() => worker.close(true));
    const client = await FleetClient.open({ url: redis.url, queue, ...options });
    closers.push(() => client.close());
    const workspace = await tempDir("agentry-fleet-faults-");
    const child = async (replies: ScriptedReply[]) => {
      const model = scriptedModel(replies, { id: `scripted:${randomBytes(6).toString("hex")}` });
      models.set(model.id, model);
      const local = await testLocalChild(model, workspace);
      return { local, model, executor: queueExecutor(local, client) };
    };
    return { redis, queue, client, child };
  }

  it("Redis lost mid-run: the child ends with an error naming the server; its transcript stays valid", async () => {
    const { redis, child } = await fleet({ lostAfterMs: scaled(300) });
    const { local, model, executor } = await child([{ text: "never seen", delayMs: 10_000 }]);
    const activation = executor.start(input("a long task"));
    expect(await until(() => model.requests.length === 1, 5_000)).toBe(true);

    await redis.kill();
    const { outcome } = await activation.done;

    expect(outcome.status).toBe("error");
    expect(outcome.status === "error" && outcome.error).toContain(
      `lost the connection to Redis at ${redis.url}`,
    );
    // Only the prompt: nothing half-done was appended, so the conversation can be continued.
    expect(local.session.messages.map((message) => message.role)).toEqual(["user"]);
  });

  it("a parent that stops renewing its lease (it died) has its child stopped by the worker", async () => {
    const { client, queue, child } = await fleet({ leaseMs: scaled(600) });
    const { model, executor } = await child([{ text: "never seen", delayMs: 20_000 }]);
    const activation = executor.start(input("a long task"));
    expect(await until(() => model.requests.length === 1, 5_000)).toBe(true);
    const jobId = activation.ref?.kind === "queue" ? activation.ref.jobId : "";

    // The parent's connection goes: no more renewals, as when its process is killed.
    client.commands.disconnect();
    const observer = await FleetClient.open({ url: client.target.url, queue });
    closers.push(() => observer.close());
    const job = await Job.fromId(observer.queue, jobId);
    const result = jobResultSchema.parse(await job!.waitUntilFinished(observer.events, scaled(10_000)));

    expect(result.outcome).toMatchObject({
      status: "aborted",
      reason: "its parent stopped following it (its lease expired)",
    });
  });

  it("a job no worker takes is said so at once when the queue has none; cancelled, it leaves the queue and ends at once", async () => {
    const { redis } = await fleet();
    const warnings: string[] = [];
    const lonely = await FleetClient.open({
      url: redis.url,
      queue: "nobody-listens",
      workerCheckMs: 100,
      warn: (message) => warnings.push(message),
    });
    closers.push(() => lonely.close());
    const model = scriptedModel([{ text: "never asked" }]);
    const controller = new AbortController();
    const activation = queueExecutor(
      await testLocalChild(model, await tempDir("agentry-lonely-")),
      lonely,
    ).start({
      ...input("a task"),
      signal: controller.signal,
    });

    expect(await until(() => warnings.length > 0, 5_000)).toBe(true);
    expect(warnings[0]).toMatch(
      /^no worker is taking jobs from queue "nobody-listens" at redis:\/\/127\.0\.0\.1:\d+\/0: 1 queued child waits for one \(start one with `agentry worker --redis redis:\/\/127\.0\.0\.1:\d+\/0 --queue nobody-listens`\); they fail if none comes within 10m \(fleet\.noWorkerTimeoutMs\)$/,
    );
    // No worker would ever take it: not ended by the cancel, it would wait forever.
    controller.abort("cancelled by its parent (task_cancel)");
    const { outcome } = await activation.done;

    expect(outcome).toMatchObject({ status: "aborted", reason: "cancelled by its parent (task_cancel)" });
    expect(await lonely.queue.getJobCounts("waiting", "active")).toEqual({ waiting: 0, active: 0 });
    expect(model.requests).toHaveLength(0);
  });

  it("Redis not there at the start: a clear error, at once", async () => {
    const redis = await startRedisServer();
    await redis.stop();
    // Retrying, it would never end.
    const opened = FleetClient.open({ url: redis.url });

    await expect(opened).rejects.toThrow(RedisUnavailableError);
    await expect(opened).rejects.toThrow(`Cannot reach Redis at ${redis.url}`);
  });

  it("a worktree child makes no worktree on the parent, and without a git remote it is refused, saying what to add", async () => {
    const { client } = await fleet();
    const repo = await tempDir("agentry-fleet-repo-");
    execFileSync("git", ["init", "-q", repo]);
    execFileSync("git", [
      "-C",
      repo,
      "-c",
      "user.email=t@e.st",
      "-c",
      "user.name=t",
      "commit",
      "-q",
      "--allow-empty",
      "-m",
      "init",
    ]);
    const placement = queuePlacement(client);
    const { spec } = await testLocalChild(scriptedModel([]), repo);
    const worktree = { ...spec, workspace: { mode: "worktree", parent: repo } } as const;

    await expect(placement.workspace(worktree)).rejects.toThrow(
      `has no remote "origin": add one (git remote add origin <url>)`,
    );
    execFileSync("git", ["-C", repo, "remote", "add", "origin", await tempDir("agentry-fleet-remote-")]);
    const made = await placement.workspace(worktree);

    expect(made).toMatchObject({ mode: "worktree", path: repo });
    expect(
      execFileSync("git", ["-C", repo, "worktree", "list"], { encoding: "utf8" }).trim().split("\n"),
    ).toHaveLength(1);
  });
});

function input(prompt: string) {
  return { prompt, messages: [], signal: new AbortController().signal, emit: () => {} };
}
