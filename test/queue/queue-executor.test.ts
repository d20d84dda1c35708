import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { userText } from "../../src/model/messages.ts";
import type { Model } from "../../src/model/model.ts";
import { FleetClient } from "../../src/queue/parent/fleet-client.ts";
import { queueExecutor } from "../../src/queue/parent/queue-executor.ts";
import { FleetWorker } from "../../src/queue/worker/fleet-worker.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { executorConformance, texts } from "../subagents/executor.conformance.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { testLocalChild } from "../support/local-child.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";
import { tempDir } from "../support/temp-dir.ts";

describeWith(REDIS, "queue executor", () => {
  let server: RedisServer;
  let worker: FleetWorker;
  const clients: FleetClient[] = [];
  const models = new Map<string, Model>();
  const queue = `q${randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    server = await startRedisServer();
    worker = await FleetWorker.start(
      { url: server.url, queue, concurrency: 4 },
      {
        createModel: (id) => {
          const model = models.get(id);
          if (model === undefined) throw new Error(`no model ${id} on this worker`);
          return model;
        },
        tools: () => [],
        commands: async () => undefined,
      },
    );
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await worker?.close(true);
    await server?.stop();
  });

  const open = async () => {
    const client = await FleetClient.open({ url: server.url, queue });
    clients.push(client);
    return client;
  };

  executorConformance("queue", {
    follows: true,
    async child(replies) {
      const workspace = await tempDir("agentry-queue-executor-");
      const model = scriptedModel(replies, { id: `scripted:${randomBytes(6).toString("hex")}` });
      models.set(model.id, model);
      const client = await open();
      return {
        executor: queueExecutor(await testLocalChild(model, workspace), client),
        agentPath: ["main", "explore-1"],
        requests: () => model.requests,
        reopen: async () => queueExecutor(await testLocalChild(model, workspace), await open()),
      };
    },
  });

  it("a followed job's messages join the follower's conversation once, and the child goes on from there", async () => {
    const workspace = await tempDir("agentry-queue-follow-");
    const model = scriptedModel([{ text: "done in the end", delayMs: 500 }, { text: "second answer" }], {
      id: `scripted:${randomBytes(6).toString("hex")}`,
    });
    models.set(model.id, model);
    const starter = await testLocalChild(model, workspace);
    const first = queueExecutor(starter, await open()).start(input("a task"));
    // The process that follows it has the child's conversation as it was when its job was added.
    const follower = await testLocalChild(model, workspace);
    await follower.session.append(userText("a task"));
    const reopened = queueExecutor(follower, await open());
    const followed = reopened.follow!(first.ref!, { signal: new AbortController().signal, emit: () => {} });
    await Promise.all([first.done, followed.done]);

    expect(texts(follower.session.messages)).toEqual(["a task", "done in the end"]);
    expect(texts(follower.session.messages)).toEqual(texts(starter.session.messages));
    const { outcome } = await reopened.start(input("and then?")).done;
    expect(outcome).toMatchObject({ status: "completed", text: "second answer" });
    expect(texts(model.requests[1]?.messages ?? [])).toEqual(["a task", "done in the end", "and then?"]);
  });
});

function input(prompt: string) {
  return { prompt, messages: [], signal: new AbortController().signal, emit: () => {} };
}
