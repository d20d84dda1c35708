import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { a2aPlacement } from "../../src/remote/client/a2a-placement.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import {
  firstUserText,
  registryWith,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "../subagents/support/subagent-harness.ts";
import type { A2aStep } from "../support/a2a-agent-script.ts";
import { startA2aServer, type TestA2aServer } from "../support/a2a-server.ts";

/**
 * A parent run delegating to a remote (A2A) agent through the `task` tools: the same results as a
 * local child, its record naming the agent's URL and remote task, and a remote failure that is the
 * child's error while the parent goes on.
 */
const servers: TestA2aServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function remoteTree(
  script: readonly A2aStep[],
  root: (request: ModelRequest, turn: number) => ScriptedReply,
) {
  const server = await startA2aServer(script);
  servers.push(server);
  const workspace = await tempWorkspace();
  let turn = 0;
  const model = scriptedModel((request) => root(request, turn++));
  const registry = registryWith({
    name: "far",
    description: "A remote helper.",
    prompt: "",
    url: server.url,
  });
  const tree = rootTree({
    workspace,
    model,
    registry,
    placements: [a2aPlacement({ env: {}, timeoutMs: 2_000 })],
  });
  return { server, model, ...tree };
}

const delegate = (prompt: string, extra: Record<string, unknown> = {}): ScriptedReply => ({
  toolCalls: [{ name: "task", args: { description: "Ask far", prompt, subagent_type: "far", ...extra } }],
});

describe("remote subagents through task", () => {
  it("a foreground task returns the remote answer, and the record names the agent and its task", async () => {
    const { server, model, runtime, config } = await remoteTree(
      [{ reply: "the remote answer" }],
      (request) => {
        const [result] = toolResultsIn(request.messages);
        return result === undefined ? delegate("REMOTE WORK") : { text: `root got: ${result.content}` };
      },
    );

    const run = await runTree(config, "ROOT");
    expect(run.outcome.status).toBe("completed");
    expect(run.outcome.text).toContain("the remote answer");
    expect(server.messages.map((m) => m.text)).toEqual(["REMOTE WORK"]);
    const [record] = await runtime.store.list();
    expect(record).toMatchObject({
      status: "COMPLETED",
      agentType: "far",
      model: `a2a:${server.url}`,
      ref: {
        kind: "a2a",
        url: server.url,
        taskId: server.messages[0]?.taskId,
        contextId: server.messages[0]?.contextId,
      },
    });
    expect(model.requests.length).toBe(2);
    await runtime.shutdown();
  });

  it("task_list and task_output name the remote agent's URL and its task", async () => {
    const { server, runtime, config } = await remoteTree([{ reply: "listed" }], (request, turn) => {
      const results = toolResultsIn(request.messages);
      if (turn === 0) return delegate("WORK");
      if (turn === 1) {
        const taskId = /(sub-[a-z0-9-]+)/.exec(results[0]?.content ?? "")?.[1];
        return {
          toolCalls: [
            { name: "task_list", args: {} },
            { name: "task_output", args: { task_id: taskId } },
          ],
        };
      }
      return {
        text: results
          .slice(-2)
          .map((result) => result.content)
          .join("\n---\n"),
      };
    });

    const run = await runTree(config, "ROOT");
    const where = `remote A2A agent ${server.url}, task ${server.messages[0]?.taskId}, context ${server.messages[0]?.contextId}`;
    const [list, output] = run.outcome.text.split("\n---\n");
    expect(list).toContain(where);
    expect(output).toContain(`runs at: ${where}`);
    await runtime.shutdown();
  });

  it("INPUT_REQUIRED is the child's answer; task_send answers it in the same remote task", async () => {
    const { server, runtime, config } = await remoteTree(
      [{ inputRequired: "Which file?" }, { reply: "fixed a.ts" }],
      (request, turn) => {
        const results = toolResultsIn(request.messages);
        if (turn === 0) return delegate("FIX IT");
        if (turn === 1) {
          const taskId = /(sub-[a-z0-9-]+)/.exec(results[0]?.content ?? "")?.[1];
          expect(results[0]?.content).toContain("Which file?");
          return { toolCalls: [{ name: "task_send", args: { task_id: taskId, message: "a.ts" } }] };
        }
        return { text: `done: ${results.at(-1)?.content}` };
      },
    );

    const run = await runTree(config, "ROOT");
    expect(run.outcome.text).toContain("fixed a.ts");
    expect(server.messages.map((m) => [m.text, m.continued])).toEqual([
      ["FIX IT", false],
      ["a.ts", true],
    ]);
    expect(server.messages[1]?.taskId).toBe(server.messages[0]?.taskId);
    await runtime.shutdown();
  });

  it("a remote agent that is down is the child's error; the parent completes", async () => {
    const { server, runtime, config } = await remoteTree([{ reply: "never" }], (request) => {
      const [result] = toolResultsIn(request.messages);
      if (firstUserText(request.messages) === "ROOT" && result === undefined) return delegate("WORK");
      return { text: `root went on (error: ${result?.isError}): ${result?.content}` };
    });
    await server.close();

    const run = await runTree(config, "ROOT");
    expect(run.outcome.status).toBe("completed");
    expect(run.outcome.text).toContain("root went on (error: true)");
    expect(run.outcome.text).toContain(`cannot reach the remote agent at ${server.url}`);
    await runtime.shutdown();
  });

  it("a call that asks a remote agent for a model or a fork is refused with the reason", async () => {
    const { runtime, config } = await remoteTree([{ reply: "never" }], (request) => {
      const [result] = toolResultsIn(request.messages);
      if (result === undefined) return delegate("WORK", { model: "sonnet" });
      return { text: result.content };
    });
    const run = await runTree(config, "ROOT");
    expect(run.outcome.text).toContain("it runs on its own server's model");
    await runtime.shutdown();
  });
});
