import { Session } from "../../src/agent/session.ts";
import { builtinAgents } from "../../src/agents/builtin-agents.ts";
import { prepareChildWorkspace } from "../../src/subagents/child-workspace.ts";
import { inProcessExecutor } from "../../src/subagents/in-process-executor.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import { tempDir } from "../support/temp-dir.ts";
import { executorConformance } from "./executor.conformance.ts";

executorConformance("in-process", {
  follows: false,
  async child(replies) {
    const workspace = await tempDir("agentry-executor-");
    const model = scriptedModel(replies);
    const definition = builtinAgents().find((agent) => agent.name === "explore")!;
    const agentPath = ["main", "explore-1"];
    const session = await Session.create({
      workspace,
      agentName: "explore",
      model: model.id,
      persist: false,
    });
    const executor = inProcessExecutor(
      {
        definition,
        rules: [],
        mode: "default",
        session,
        workspace: await prepareChildWorkspace({
          mode: "shared",
          parentWorkspace: workspace,
          agentName: "explore",
          taskId: session.id,
        }),
        config: {
          name: "explore",
          model,
          systemPrompt: "You are a subagent of a test.",
          tools: [],
          workspace,
          ops: nodeOperations,
          agentPath,
          depth: 1,
        },
      },
      (message) => {
        throw new Error(`unexpected warning: ${message}`);
      },
    );
    return { executor, agentPath, requests: () => model.requests };
  },
});
