import { afterEach, expect, it } from "vitest";
import { startA2aServer, type TestA2aServer } from "../../support/a2a-server.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

/** A remote agent's file without a description: the run offers it with its card's description. */
const closing: Array<TestA2aServer | ModelServer> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((server) => server.close()));
});

it("the parent model sees a remote agent described by its card; an unreachable card is a warning", async () => {
  const agent = await startA2aServer([{ reply: "unused" }], {
    description: "Knows the tide tables of every port.",
  });
  const down = await startA2aServer([{ reply: "unused" }]);
  await down.close();
  const model = await startModelServer([{ text: "ok" }]);
  closing.push(agent, model);
  const ws = await makeWorkspace({
    ".agentry/agents/tides.md": `---\nname: tides\nurl: ${agent.url}\n---\n`,
    ".agentry/agents/gone.md": `---\nname: gone\nurl: ${down.url}\n---\n`,
  });
  await ws.trust();
  const result = await runCli(["run", "What can you delegate?"], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(model, "anthropic") },
  });
  expect(result.code).toBe(0);
  const request = JSON.stringify(model.requests[0]?.body);
  expect(request).toContain("Knows the tide tables of every port.");
  expect(request).toContain("A remote A2A agent (its description comes from its agent card).");
  expect(result.stderr).toContain('agent "gone" has no description and its card could not be read');
});
