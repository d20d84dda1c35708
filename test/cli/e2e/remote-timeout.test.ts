import { afterEach, expect, it } from "vitest";
import { type FaultProxy, startFaultProxy } from "../../support/a2a-fault-proxy.ts";
import { startA2aServer, type TestA2aServer } from "../../support/a2a-server.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

/** `remote.timeoutMs` in agentry.json bounds a remote agent that never answers; the parent goes on. */
const closing: Array<TestA2aServer | FaultProxy | ModelServer> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((server) => server.close()));
});

it("a remote agent that never answers is the child's error after remote.timeoutMs, and the run completes", async () => {
  const agent = await startA2aServer([{ reply: "never" }]);
  const silent = await startFaultProxy(agent.url, "silent");
  const model = await startModelServer([
    {
      toolCalls: [
        { name: "task", args: { description: "Ask far", prompt: "Anyone there?", subagent_type: "far" } },
      ],
    },
    (request) => {
      const body = JSON.stringify(request.body);
      return { text: `went on: ${body.includes("did not answer within 400ms (remote.timeoutMs)")}` };
    },
  ]);
  closing.push(agent, silent, model);
  const ws = await makeWorkspace({
    "agentry.json": JSON.stringify({ remote: { timeoutMs: 400 } }),
    ".agentry/agents/far.md": `---\nname: far\ndescription: A silent agent.\nurl: ${silent.url}\n---\n`,
  });
  await ws.trust();
  const result = await runCli(["run", "--permission-mode", "bypass", "Delegate it"], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(model, "anthropic") },
  });
  expect(result.code).toBe(0);
  // The remote agent never answers: without the timeout the run would hang.
  expect(result.stdout).toContain("went on: true");
});
