import type { AgentDefinition } from "../agents/definition.ts";
import type { RemoteExecutors } from "../subagents/remote-executors.ts";
import { a2aExecutor } from "./a2a-executor.ts";
import { RemoteAgent, type RemoteAgentOptions } from "./remote-agent.ts";

/**
 * The remote executors of one run: one `RemoteAgent` per agent URL and headers, so its card is
 * fetched once per run and its client reused by every child that calls it.
 */
export function a2aExecutors(
  options: RemoteAgentOptions,
): RemoteExecutors & { agent(definition: AgentDefinition): RemoteAgent } {
  const agents = new Map<string, RemoteAgent>();
  const agent = (definition: AgentDefinition): RemoteAgent => {
    const key = JSON.stringify([definition.url, definition.headers ?? {}]);
    let found = agents.get(key);
    if (found === undefined) {
      found = new RemoteAgent(definition, options);
      agents.set(key, found);
    }
    return found;
  };
  return {
    agent,
    label: (definition) => `a2a:${definition.url ?? ""}`,
    executor: (spec) => a2aExecutor(agent(spec.definition), spec, `a2a:${spec.definition.url ?? ""}`),
  };
}
