import { randomBytes } from "node:crypto";
import { afterEach, expect, it } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { FleetClient } from "../../src/queue/parent/fleet-client.ts";
import { queueExecutor } from "../../src/queue/parent/queue-executor.ts";
import { queuePlacement } from "../../src/queue/parent/queue-placement.ts";
import { FleetWorker } from "../../src/queue/worker/fleet-worker.ts";
import { childSpecSchema } from "../../src/subagents/child/child-spec.ts";
import type { ChildPlacement } from "../../src/subagents/run/child-placement.ts";
import { type ScriptedModel, scriptedModel } from "../../src/testing/index.ts";
import { builtinTools } from "../../src/tools/builtin.ts";
import {
  isChildRequest,
  registryWith,
  rootTree,
  runTree,
  tempWorkspace,
} from "../subagents/support/subagent-harness.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { pngImage } from "../support/images.ts";
import { testLocalChild } from "../support/local-child.ts";
import { startRedisServer } from "../support/redis-server.ts";

// A child is described once by its parent (its ChildSpec) and run from that description wherever it
// runs: a worker gives the model the same system prompt, tools and temperature as the parent's own
// process does, and a spec survives the trip as JSON unchanged.

const NOTER = {
  name: "noter",
  description: "Takes notes",
  prompt: "You take notes.",
  tools: ["read", "grep"],
  temperature: 0.3,
  withheld: ['MCP server "notes" (its folder is not trusted)'],
  model: "scripted:child",
};

describeWith(REDIS, "a child described once", () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  });

  /** Runs `main` delegating to `noter` once, its child placed by `placements`; the child model's first request. */
  async function delegate(placements: ChildPlacement[], childModel: ScriptedModel): Promise<ModelRequest> {
    const workspace = await tempWorkspace();
    const root = scriptedModel((request) =>
      request.messages.length === 1
        ? {
            toolCalls: [
              { name: "task", args: { description: "notes", prompt: "note it", subagent_type: "noter" } },
            ],
          }
        : { text: "done" },
    );
    const { config, runtime } = rootTree({
      workspace,
      model: root,
      registry: registryWith(NOTER),
      createModel: () => childModel,
      placements,
    });
    closers.push(() => runtime.shutdown());
    const run = await runTree(config, "delegate");
    expect(run.outcome.status).toBe("completed");
    const request = childModel.requests[0];
    if (request === undefined) throw new Error("the child's model was never asked");
    expect(isChildRequest(request)).toBe(true);
    return request;
  }

  it("a worker runs the spec its parent built: the same system prompt (withheld notes too), tools and temperature as in process", async () => {
    const redis = await startRedisServer();
    closers.push(() => redis.stop());
    const queue = `q${randomBytes(4).toString("hex")}`;
    const onWorker = scriptedModel([{ text: "noted" }], { id: "scripted:child" });
    const worker = await FleetWorker.start(
      { url: redis.url, queue },
      { createModel: () => onWorker, tools: () => builtinTools(), commands: async () => undefined },
    );
    closers.push(() => worker.close(true));
    const client = await FleetClient.open({ url: redis.url, queue });
    closers.push(() => client.close());

    const here = await delegate([], scriptedModel([{ text: "noted" }], { id: "scripted:child" }));
    const queued = await delegate([queuePlacement(client)], onWorker);

    const comparable = (request: ModelRequest) => ({
      // The workspaces differ (one temp folder per run); everything else is the spec's.
      system: request.system.replace(/agentry-subagents-[^`\s]+/g, "<workspace>"),
      tools: request.tools.map((tool) => tool.name),
      temperature: request.temperature,
    });
    expect(comparable(queued)).toEqual(comparable(here));
    expect(queued.system).toContain('MCP server "notes" (its folder is not trusted)');
    expect(comparable(queued).tools).toEqual(["read", "grep"]);
    expect(queued.temperature).toBe(0.3);
  });

  it("a task's images travel with its conversation, not its spec: the worker's model sees them as sent", async () => {
    const redis = await startRedisServer();
    closers.push(() => redis.stop());
    const queue = `q${randomBytes(4).toString("hex")}`;
    const model = scriptedModel([{ text: "a grey square" }], {
      id: `scripted:${randomBytes(6).toString("hex")}`,
    });
    const worker = await FleetWorker.start(
      { url: redis.url, queue },
      { createModel: () => model, tools: () => [], commands: async () => undefined },
    );
    closers.push(() => worker.close(true));
    const client = await FleetClient.open({ url: redis.url, queue });
    closers.push(() => client.close());
    const image = { type: "image" as const, data: pngImage(4, 4).toString("base64"), mediaType: "image/png" };

    const child = await testLocalChild(model, await tempWorkspace());
    const { outcome } = await queueExecutor(child, client).start({
      prompt: "what is this?",
      images: [image],
      messages: [],
      signal: new AbortController().signal,
      emit: () => {},
    }).done;

    expect(outcome).toMatchObject({ status: "completed", text: "a grey square" });
    expect(model.requests[0]?.messages[0]).toEqual({
      role: "user",
      content: [{ type: "text", text: "what is this?" }, image],
    });
  });
});

it("a spec is serialisable: it comes back from JSON through its strict schema as it was", () => {
  const spec = {
    v: 1,
    kind: "loop",
    taskId: "sub-1",
    sessionId: "sub-1",
    parentSessionId: "main-1",
    agentPath: ["main", "noter-1"],
    depth: 1,
    agent: { name: "noter", description: "d", prompt: "p", withheld: ["x"], temperature: 0.3 },
    instructions: "# Project\nUse vitest.",
    model: "scripted:child",
    tools: ["read"],
    spawn: false,
    rules: [{ permission: "bash", pattern: "*", action: "allow", narrowOnly: true }],
    mode: "default",
    sandbox: { readOnly: true, allowedHosts: ["*.example.com"] },
    limits: { maxTurns: 3, stallTimeoutMs: 1000 },
    tree: { id: "tree-1", maxDepth: 2, maxDescendants: 10 },
    workspace: { mode: "isolated", parent: "/srv/project", path: "notes" },
  } as const;
  expect(childSpecSchema.parse(JSON.parse(JSON.stringify(spec)))).toEqual(spec);
  expect(() => childSpecSchema.parse({ ...spec, v: 2 })).toThrow();
});
