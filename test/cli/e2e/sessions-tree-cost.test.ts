import { afterEach, expect, it } from "vitest";
import type { Usage } from "../../../src/model/messages.ts";
import { CHILD_MARK, wireMessages, wireSystem } from "../../subagents/support/subagent-harness.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

// `sessions show` gives what the session cost with the subagents it started, not its own calls only.

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  server = undefined;
  ws = undefined;
});

const tokens = (usage: Usage) => usage.input + usage.output + usage.cacheRead + usage.cacheWrite;

it("sessions show totals the tree: the session and every subagent session under it", async () => {
  ws = await makeWorkspace();
  server = await startModelServer((request) => {
    if (wireSystem(request.body).includes(CHILD_MARK))
      return { text: "child done", usage: { input: 5_000, output: 500 } };
    return wireMessages(request.body).length === 1
      ? {
          toolCalls: [{ name: "task", args: { description: "Work", prompt: "work" } }],
          usage: { input: 1_000, output: 100 },
        }
      : { text: "root done", usage: { input: 1_000, output: 100 } };
  });
  const env = { ...ws.env, ...providerEnv(server, "anthropic") };
  const run = await runCli(["run", "--model", "anthropic:claude-sonnet-4-5", "-o", "json", "go"], {
    cwd: ws.dir,
    env,
  });
  expect(run.code).toBe(0);
  const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };

  const json = await runCli(["sessions", "show", sessionId, "--json"], { cwd: ws.dir, env });
  const { usage } = JSON.parse(json.stdout) as {
    usage: { session: Usage; tree: Usage; subagentSessions: number };
  };
  expect(tokens(usage.session)).toBe(2_200);
  expect(tokens(usage.tree)).toBe(7_700);
  expect(usage.subagentSessions).toBe(1);
  expect(usage.tree.cost).toBeGreaterThan(usage.session.cost ?? 0);

  const text = await runCli(["sessions", "show", sessionId], { cwd: ws.dir, env });
  expect(text.stdout).toMatch(
    /usage: 7,700 tokens · \$\d+\.\d{4} with its 1 subagent session \(this session alone: 2,200 tokens · \$\d+\.\d{4}\)/,
  );
});
