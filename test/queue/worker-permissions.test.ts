import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import type { PermissionMode } from "../../src/permissions/modes.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { FleetClient } from "../../src/queue/parent/fleet-client.ts";
import { queueExecutor } from "../../src/queue/parent/queue-executor.ts";
import { FleetWorker } from "../../src/queue/worker/fleet-worker.ts";
import { jobPermissions } from "../../src/queue/worker/worker-host.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { builtinTools } from "../../src/tools/builtin.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { testLocalChild } from "../support/local-child.ts";
import { startRedisServer } from "../support/redis-server.ts";
import { tempDir } from "../support/temp-dir.ts";

// Whoever can write to the fleet's Redis writes the jobs: a worker does not take a job's word that it
// may run in bypass mode unless its owner said so (`agentry worker --allow-bypass`).

it("a job in bypass runs as accept-edits with leaving the sandbox denied, unless the worker allows bypass", () => {
  const rules = [{ permission: "bash", pattern: "git *", action: "allow" as const }];
  expect(jobPermissions({ rules, mode: "bypass" }, false)).toEqual({
    rules: [...rules, { permission: "unsandboxed", pattern: "*", action: "deny" }],
    mode: "accept-edits",
  });
  expect(jobPermissions({ rules, mode: "plan" }, false).mode).toBe("plan");
  expect(jobPermissions({ rules, mode: "bypass" }, true)).toEqual({ rules, mode: "bypass" });
});

describeWith(REDIS, "a worker's ceiling on what a job may do", () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  });

  /** A job whose child runs `touch` on a worker without an OS sandbox; did the file appear? */
  async function jobTouches(
    allowBypass: boolean,
    child: { mode: PermissionMode; rules?: Ruleset } = { mode: "bypass" },
  ): Promise<{ made: boolean; result: string }> {
    const redis = await startRedisServer();
    closers.push(() => redis.stop());
    const queue = `q${randomBytes(4).toString("hex")}`;
    const workspace = await tempDir("agentry-worker-ceiling-");
    const target = join(workspace, "made-by-a-job");
    const model = scriptedModel(
      [{ toolCalls: [{ name: "bash", args: { command: `touch ${target}` } }] }, { text: "done" }],
      { id: `scripted:${randomBytes(6).toString("hex")}` },
    );
    const worker = await FleetWorker.start(
      { url: redis.url, queue },
      {
        createModel: () => model,
        tools: () => builtinTools({ bash: { sandboxed: false } }),
        commands: async () => undefined,
        allowBypass,
      },
    );
    closers.push(() => worker.close(true));
    const client = await FleetClient.open({ url: redis.url, queue });
    closers.push(() => client.close());
    const local = await testLocalChild(model, workspace, {
      agent: "general-purpose",
      ...child,
      tools: builtinTools({ bash: { sandboxed: false } }),
    });
    const activation = queueExecutor(local, client).start({
      prompt: "touch the file",
      messages: [],
      signal: new AbortController().signal,
      emit: () => {},
    });
    await activation.done;
    const toolResult = JSON.stringify(model.requests[1]?.messages.at(-1) ?? "");
    return { made: existsSync(target), result: toolResult };
  }

  it("without --allow-bypass the command is refused (nobody to ask) and nothing is made", async () => {
    const { made, result } = await jobTouches(false);
    expect(made).toBe(false);
    expect(result).toContain('no one can approve it in this run (permission mode \\"accept-edits\\")');
  });

  it("with --allow-bypass the worker runs it as the job says", async () => {
    const { made } = await jobTouches(true);
    expect(made).toBe(true);
  });

  it("an untrusted project's allow rule keeps its narrowing mark on the worker: it lifts no ask there either", async () => {
    const narrowing: Ruleset = [{ permission: "bash", pattern: "*", action: "allow", narrowOnly: true }];
    const { made, result } = await jobTouches(true, { mode: "default", rules: narrowing });
    expect(made).toBe(false);
    expect(result).toContain("no one can approve it");
  });
});
