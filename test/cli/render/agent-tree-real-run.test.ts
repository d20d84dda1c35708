import { describe, expect, it } from "vitest";
import type { AgentConfig } from "../../../src/agent/config.ts";
import { runAgentLoop } from "../../../src/agent/loop.ts";
import { Session } from "../../../src/agent/session/session.ts";
import { AgentRegistry } from "../../../src/agents/agent-registry.ts";
import { builtinAgents } from "../../../src/agents/builtin-agents.ts";
import type { AgentEvent } from "../../../src/contracts/events.ts";
import { userText } from "../../../src/model/messages.ts";
import { DEFAULT_RULES } from "../../../src/permissions/defaults.ts";
import { attachSubagents } from "../../../src/subagents/tree/with-subagents.ts";
import { scriptedModel } from "../../../src/testing/scripted-model.ts";
import { builtinTools } from "../../../src/tools/builtin.ts";
import { nodeOperations } from "../../../src/tools/node-operations.ts";
import { emptyAgentTree, findNode, reduceAgentTree } from "../../../src/tree/agent-tree-state.ts";
import { treeTotals } from "../../../src/tree/agent-tree-totals.ts";
import { tempDir } from "../../support/temp-dir.ts";

let workspace = "";

/**
 * The tree is fed by the real loop and subagent runtime: with one running slot, the second child
 * waits in the queue, and the tree must show that, then both ends, with the run's real usage.
 */
describe("agent tree over a real run", () => {
  it("follows queued, running and finished children and sums the usage of the whole tree", async () => {
    workspace = await tempDir("agentry-tree-");
    // The child that has the slot calls its tool only once the other is seen queued: on a loaded
    // machine it could otherwise finish before the other's task call reaches the runtime.
    let otherQueued = () => {};
    const queuedSeen = new Promise<void>((resolve) => {
      otherQueued = resolve;
    });
    const model = scriptedModel(async (request) => {
      const first = request.messages[0];
      const prompt = first?.role === "user" && first.content[0]?.type === "text" ? first.content[0].text : "";
      const replies = request.messages.filter((m) => m.role === "assistant").length;
      if (prompt.startsWith("child")) {
        if (replies > 0) return { text: `report of ${prompt}`, usage: { input: 200, output: 7 } };
        await queuedSeen;
        return { toolCalls: [{ name: "list", args: {} }], usage: { input: 100, output: 5 } };
      }
      return replies === 0
        ? {
            toolCalls: ["child one", "child two"].map((text) => ({
              name: "task",
              args: { description: text, prompt: text, subagent_type: "explore" },
            })),
            usage: { input: 50, output: 3 },
          }
        : { text: "done", usage: { input: 70, output: 2 } };
    });
    const root: AgentConfig = {
      name: "main",
      model,
      systemPrompt: "root",
      tools: builtinTools(),
      workspace,
      ops: nodeOperations,
      agentPath: ["main"],
      depth: 0,
    };
    const { config } = attachSubagents(root, {
      registry: new AgentRegistry({ definitions: builtinAgents() }),
      createModel: () => model,
      baseTools: builtinTools,
      permission: { rules: DEFAULT_RULES, mode: "default" },
      limits: { maxConcurrent: 1 },
      persistSessions: false,
    });
    const session = await Session.create({ workspace, agentName: "main", model: model.id, persist: false });
    await session.append(userText("go"));

    let state = emptyAgentTree;
    const seen: string[] = [];
    const outcomes: number[] = [];
    const emit = (event: AgentEvent) => {
      state = reduceAgentTree(state, event, Date.now());
      if (event.type === "agent_end") outcomes.push(event.outcome.usage.input + event.outcome.usage.output);
      for (const node of state.nodes.filter((n) => n.path.length > 1)) {
        const label = `${node.key}:${node.status}`;
        if (node.status === "queued") otherQueued();
        if (seen.at(-1) !== label && !seen.includes(label)) seen.push(label);
      }
    };
    const outcome = await runAgentLoop(config, session, emit);

    expect(outcome.status).toBe("completed");
    // Both children start in the same step; which one gets the one slot first is up to the scheduler.
    const queued = seen.includes("main/explore-2:queued") ? "explore-2" : "explore-1";
    const first = queued === "explore-2" ? "explore-1" : "explore-2";
    expect(seen).toContain(`main/${queued}:queued`);
    expect(seen).not.toContain(`main/${first}:queued`);
    expect(seen.indexOf(`main/${queued}:queued`)).toBeLessThan(seen.indexOf(`main/${queued}:running`));
    expect(seen.indexOf(`main/${first}:completed`)).toBeLessThan(seen.indexOf(`main/${queued}:running`));
    expect(findNode(state, ["main", "explore-2"])).toMatchObject({
      status: "completed",
      agentType: "explore",
      description: "child two",
      turns: 2,
      tokensIn: 300,
      tokensOut: 12,
    });
    const totals = treeTotals(state);
    expect(totals).toMatchObject({ agents: 3, children: 2, completed: 3, running: 0, queued: 0 });
    expect(totals.tokensIn + totals.tokensOut).toBe(outcomes.reduce((sum, n) => sum + n, 0));
  });
});
