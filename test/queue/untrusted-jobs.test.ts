import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { FleetKey } from "../../src/queue/fleet-key.ts";
import { jobKeys } from "../../src/queue/fleet-keys.ts";
import type { JobData, JobResult } from "../../src/queue/job-data.ts";
import { pushEntry } from "../../src/queue/mailbox.ts";
import { FleetClient } from "../../src/queue/parent/fleet-client.ts";
import { snapshotWorkspace } from "../../src/queue/parent/git-snapshot.ts";
import { queueExecutor } from "../../src/queue/parent/queue-executor.ts";
import { FleetWorker } from "../../src/queue/worker/fleet-worker.ts";
import { type ScriptedModel, scriptedModel } from "../../src/testing/index.ts";
import { builtinTools } from "../../src/tools/builtin.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { testLocalChild } from "../support/local-child.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";
import { tempDir } from "../support/temp-dir.ts";

// Issue 21: whoever writes to the fleet's Redis writes jobs. Here the test is that writer: it adds jobs
// to the queue itself (a FleetClient without the fleet's key, BullMQ underneath) and a real worker
// takes them. Nothing in a job may make the worker run a program or work outside its own folders, and
// a worker holding the fleet's key runs only what a parent signed.

const KEY = "k".repeat(16) + randomBytes(16).toString("hex");

describeWith(REDIS, "jobs are untrusted input", () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  });

  interface Fleet {
    redis: RedisServer;
    queue: string;
    worker: FleetWorker;
    log: string[];
    /** The writer: adds and follows jobs as anyone with access to Redis can. */
    writer: FleetClient;
    model: ScriptedModel;
  }

  async function fleet(options: { workerKey?: string; model?: ScriptedModel } = {}): Promise<Fleet> {
    const redis = await startRedisServer();
    closers.push(() => redis.stop());
    const queue = `q${randomBytes(4).toString("hex")}`;
    const model = options.model ?? scriptedModel(() => ({ text: "done" }), { id: "scripted:untrusted" });
    const log: string[] = [];
    const worker = await FleetWorker.start(
      {
        url: redis.url,
        queue,
        log: (line) => log.push(line),
        ...(options.workerKey === undefined ? {} : { key: new FleetKey(options.workerKey) }),
      },
      {
        createModel: () => model,
        tools: () => builtinTools({ bash: { sandboxed: false } }),
        commands: async () => undefined,
      },
    );
    closers.push(() => worker.close(true));
    const writer = await FleetClient.open({ url: redis.url, queue });
    closers.push(() => writer.close());
    await writer.ready();
    return { redis, queue, worker, log, writer, model };
  }

  /** A job as a parent would write it, with `workspace` (and any field of it or of its spec) replaced. */
  function job(
    workspace: unknown,
    more: Record<string, unknown> = {},
    spec: Record<string, unknown> = {},
  ): Record<string, unknown> {
    const mode = (workspace as { mode?: unknown } | null)?.mode;
    return {
      v: 2,
      spec: {
        v: 1,
        kind: "loop",
        taskId: "sub-1",
        sessionId: "sub-1",
        parentSessionId: "",
        agentPath: ["main", "general-purpose-1"],
        depth: 1,
        agent: { name: "general-purpose", description: "d", prompt: "p" },
        model: "scripted:untrusted",
        tools: ["write", "bash"],
        spawn: false,
        rules: [],
        mode: "accept-edits",
        sandbox: { readOnly: false },
        limits: { maxTurns: 4 },
        tree: { id: "tree-1", maxDepth: 1, maxDescendants: 64 },
        workspace: { mode: typeof mode === "string" ? mode : "shared", parent: "/srv/project" },
        ...spec,
      },
      history: [{ role: "user", content: [{ type: "text", text: "go" }] }],
      messages: [],
      workspace,
      ...more,
    };
  }

  /** Adds `data` as job `jobId` and waits for its end: the worker's result, or why it failed. */
  async function run(f: Fleet, data: object, jobId = `sub-1.${randomBytes(3).toString("hex")}`) {
    const added = await f.writer.queue.add("child", data as JobData, { jobId });
    return added.waitUntilFinished(f.writer.events).then(
      (value: JobResult) => ({ value, failed: undefined }),
      (error: Error) => ({ value: undefined, failed: error.message }),
    );
  }

  /** A repository with a commit, its bare remote, and a snapshot pushed there as a parent does. */
  async function remoteWithSnapshot() {
    const root = await tempDir("agentry-untrusted-");
    const remote = join(root, "remote.git");
    const checkout = join(root, "checkout");
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, stdio: "ignore" });
    git(root, "init", "-q", "--bare", remote);
    git(root, "init", "-q", checkout);
    await writeFile(join(checkout, "a.txt"), "a\n");
    git(checkout, "add", ".");
    git(checkout, "commit", "-qm", "init");
    git(checkout, "remote", "add", "origin", remote);
    return { root, checkout, snapshot: await snapshotWorkspace(checkout, "sub-1", "origin") };
  }

  it("a remote that is an option (--upload-pack=<cmd>) is refused before git runs: the command never runs", async () => {
    const f = await fleet();
    const marker = join(await tempDir(), "upload-pack-ran");
    const { value, failed } = await run(
      f,
      job({
        mode: "worktree",
        remote: `--upload-pack=touch ${marker};`,
        snapshot: "0".repeat(40),
        snapshotRef: "refs/agentry/snapshots/sub-1",
        branch: "agentry/sub-1",
        inner: "",
      }),
    );
    expect(existsSync(marker)).toBe(false);
    expect(value).toBeUndefined();
    expect(failed).toContain("workspace.remote: it starts with '-' (git would read it as an option)");
  });

  it("remotes other than https, ssh, file and absolute paths are refused (ext::, git://, relative paths)", async () => {
    const f = await fleet();
    for (const remote of [
      "ext::sh -c touch% /tmp/x",
      "git://example.com/r.git",
      "http://example.com/r",
      "../r.git",
    ]) {
      const { failed } = await run(
        f,
        job({
          mode: "worktree",
          remote,
          snapshot: "0".repeat(40),
          snapshotRef: "refs/agentry/snapshots/sub-1",
          branch: "agentry/sub-1",
          inner: "",
        }),
      );
      expect(failed, remote).toMatch(/workspace\.remote: it (names a remote helper|is not one of https)/);
    }
  });

  it("an inner folder that leaves the worktree is refused: the child never works there", async () => {
    const model = scriptedModel(
      (request) =>
        request.messages.some((message) => message.role === "tool_result")
          ? { text: "done" }
          : { toolCalls: [{ name: "write", args: { path: "escaped.txt", content: "x" } }] },
      { id: "scripted:untrusted" },
    );
    const f = await fleet({ model });
    const { root, snapshot } = await remoteWithSnapshot();
    const target = join(root, "elsewhere");
    await mkdir(target);
    const { failed } = await run(f, job({ ...snapshot, inner: `../../../../../../..${target}` }));
    expect(existsSync(join(target, "escaped.txt"))).toBe(false);
    expect(failed).toContain("workspace.inner: must be a relative path that stays inside the worktree");
    expect(model.requests).toHaveLength(0);
  });

  it("every field has a form: an unknown key, a path-like task id or an absolute shared path with '..' refuse the job", async () => {
    const f = await fleet();
    const shared = { mode: "shared", path: "/srv/project", workspaceId: "abcdefgh12" };
    const cases: Array<[Record<string, unknown>, string]> = [
      [job(shared, { extra: 1 }), 'Unrecognized key: "extra"'],
      [job(shared, {}, { taskId: "../../etc" }), "spec.taskId: must be a session id"],
      [job({ ...shared, path: "/srv/../etc" }), "workspace.path: must be an absolute, normal path"],
      [job(shared, {}, { model: "--help" }), "spec.model: must be provider:model"],
      [job(shared, {}, { sandbox: { readOnly: false, allowedHosts: ["a:1/x"] } }), "allowedHosts"],
      // A job carries a child that runs agentry's loop, never a remote agent's address or headers.
      [
        job(shared, {}, { agent: { name: "x", description: "d", prompt: "p", url: "https://a.example" } }),
        'Unrecognized key: "url"',
      ],
      [job(shared, {}, { kind: "remote" }), "spec.kind"],
      [
        job(shared, {}, { workspace: { mode: "isolated", parent: "/srv/project" } }),
        "workspace: its mode must be its spec's workspace mode",
      ],
    ];
    for (const [data, problem] of cases) {
      const { failed } = await run(f, data);
      expect(failed, problem).toContain(problem);
    }
  });

  it("a worker with the fleet's key refuses an unsigned job and a badly signed one, and says so in its log", async () => {
    const f = await fleet({ workerKey: KEY });
    const dir = await tempDir();
    const shared = { mode: "shared", path: dir, workspaceId: "abcdefgh12" };

    const unsigned = await run(f, job(shared), "sub-1.unsigned");
    expect(unsigned.failed).toContain("this worker refused the job: it is not signed");
    const other = new FleetKey("o".repeat(40));
    const forged = other.sign("job", { queue: f.queue, jobId: "sub-1.forged" }, job(shared));
    const badly = await run(f, forged, "sub-1.forged");
    expect(badly.failed).toContain(
      "its signature does not match this worker's fleet key (AGENTRY_FLEET_KEY)",
    );
    // A signature is for one job: moved to another job id it does not hold either.
    const key = new FleetKey(KEY);
    const moved = await run(f, key.sign("job", { queue: f.queue, jobId: "sub-1.a" }, job(shared)), "sub-1.b");
    expect(moved.failed).toContain("signature does not match");
    expect(f.log.join("\n")).toContain(
      "job sub-1.unsigned refused: it is not signed: only a parent holding the fleet's key may give this worker work",
    );
    expect(f.model.requests).toHaveLength(0);
  });

  it("a signed job runs; its mailbox entries count only when signed for it; its result comes back signed", async () => {
    const f = await fleet({ workerKey: KEY });
    const key = new FleetKey(KEY);
    const dir = await tempDir();
    const token = "abcdefgh12";
    await mkdir(join(dir, ".agentry"), { recursive: true });
    await writeFile(join(dir, ".agentry", "workspace-id"), `${token}\n`);
    const jobId = "sub-1.signed";
    const scope = { queue: f.queue, jobId };
    const keys = jobKeys(f.queue, jobId);
    const message = (text: string) => ({
      type: "message" as const,
      message: { role: "user" as const, content: [{ type: "text" as const, text }] },
    });
    await pushEntry(f.writer.commands, keys, message("forged hello"));
    await pushEntry(
      f.writer.commands,
      keys,
      key.sign("entry", { queue: f.queue, jobId: "other" }, message("moved hello")),
    );
    await pushEntry(f.writer.commands, keys, key.sign("entry", scope, message("signed hello")));

    const { value, failed } = await run(
      f,
      key.sign("job", scope, job({ mode: "shared", path: dir, workspaceId: token })),
      jobId,
    );

    expect(failed).toBeUndefined();
    expect(key.verify("result", scope, value)).toBe(true);
    const seen = JSON.stringify([f.model.requests, value?.unread]);
    expect(seen).toContain("signed hello");
    expect(seen).not.toContain("forged hello");
    expect(seen).not.toContain("moved hello");
  });

  it("a parent with the key runs its children on a keyed worker, and refuses a result no key signed", async () => {
    const keyed = await fleet({ workerKey: KEY });
    const workspace = await tempDir();
    const runChild = async (url: string, queue: string) => {
      const client = await FleetClient.open({ url, queue, key: new FleetKey(KEY) });
      closers.push(() => client.close());
      const model = scriptedModel(() => ({ text: "unused" }), { id: "scripted:untrusted" });
      const local = await testLocalChild(model, workspace, { agent: "general-purpose" });
      return queueExecutor(local, client).start({
        prompt: "work",
        messages: [],
        signal: new AbortController().signal,
        emit: () => {},
      }).done;
    };
    const ran = await runChild(keyed.redis.url, keyed.queue);
    expect(ran.outcome.status).toBe("completed");
    expect(ran.outcome.text).toBe("done");

    const unkeyed = await fleet();
    const refused = await runChild(unkeyed.redis.url, unkeyed.queue);
    expect(refused.outcome.status).toBe("error");
    expect(refused.outcome.status === "error" && refused.outcome.error).toContain(
      "with a result not signed with the fleet's key (AGENTRY_FLEET_KEY)",
    );
    expect(unkeyed.log.join("\n")).toContain("is signed, but this worker has no fleet key to check it with");
  });
});
