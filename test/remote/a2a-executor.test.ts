import { afterAll } from "vitest";
import type { A2aServer } from "../../src/remote/serve/a2a-http-server.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { executorConformance } from "../subagents/executor.conformance.ts";
import { remoteExecutor } from "../support/a2a-client.ts";
import { SERVE_TOKEN, serveScripted } from "../support/a2a-serve.ts";

/**
 * The executor suite written for local children, unchanged, for the A2A executor: the child is an
 * agent served by agentry's A2A server (its model scripted), reached over loopback.
 */
const servers: A2aServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

executorConformance("A2A (agentry serve on loopback)", {
  follows: true,
  async child(replies) {
    const model = scriptedModel(replies);
    const server = await serveScripted(model);
    servers.push(server);
    const url = server.agentUrl("explore");
    const headers = { Authorization: `Bearer ${SERVE_TOKEN}` };
    return {
      executor: remoteExecutor(url, { headers }),
      agentPath: ["main", "far-1"],
      requests: () => model.requests,
      reopen: async () => remoteExecutor(url, { headers }),
    };
  },
});
