import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import type { Model } from "../../src/model/model.ts";
import { FleetClient } from "../../src/queue/fleet-client.ts";
import { FleetWorker } from "../../src/queue/fleet-worker.ts";
import { queueExecutor } from "../../src/queue/queue-executor.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { executorConformance } from "../subagents/executor.conformance.ts";
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
});
