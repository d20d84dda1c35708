import { inProcessExecutor } from "../../src/subagents/run/in-process-executor.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { testLocalChild } from "../support/local-child.ts";
import { tempDir } from "../support/temp-dir.ts";
import { executorConformance } from "./executor.conformance.ts";

executorConformance("in-process", {
  follows: false,
  async child(replies) {
    const workspace = await tempDir("agentry-executor-");
    const model = scriptedModel(replies);
    const agentPath = ["main", "explore-1"];
    const executor = inProcessExecutor(await testLocalChild(model, workspace), (message) => {
      throw new Error(`unexpected warning: ${message}`);
    });
    return { executor, agentPath, requests: () => model.requests };
  },
});
