import type { AgentConfig } from "../../../src/agent/config.ts";
import type { Model } from "../../../src/model/model.ts";
import { createModel } from "../../../src/model/registry.ts";
import type { SubagentRuntime } from "../../../src/subagents/tree/subagent-runtime.ts";
import { registryWith, rootTree } from "./subagent-harness.ts";

/** The child of the restart scenario: its own model and only the `read` tool. */
export const SCOUT = {
  name: "scout",
  description: "Remembers things.",
  prompt: "You are a scout.",
  model: "haiku",
  tools: ["read"],
};

/** The child of the kill scenario: the test server's model and only `bash`. */
export const WORKER = {
  name: "worker",
  description: "Runs long jobs.",
  prompt: "You are a worker.",
  model: "haiku",
  tools: ["bash"],
};

/** The same tree in every process: the scout's and the worker's model alias resolve to the test server. */
export function scoutTree(
  workspace: string,
  serverUrl: string,
  root: Model,
): { config: AgentConfig; runtime: SubagentRuntime } {
  return rootTree({
    workspace,
    model: root,
    registry: registryWith(SCOUT, WORKER),
    createModel: (id) =>
      createModel(
        id,
        { anthropic: { apiKey: "test-key", baseUrl: serverUrl }, retry: { maxRetries: 0 } },
        {},
      ),
  });
}
