import type { AgentDefinition } from "../../agents/definition.ts";
import type { ChildExecutor, ChildPlacement, RemoteChildSpec } from "../../subagents/placement.ts";
import type { ExecutorRef } from "../../tasks/task-record.ts";
import { a2aExecutor } from "./a2a-executor.ts";
import { RemoteAgent, type RemoteAgentOptions } from "./remote-agent.ts";

/** What a remote agent is known by: its definition's name, URL and headers. */
export type RemoteAgentAddress = Pick<AgentDefinition, "name" | "url" | "headers">;

/**
 * Where the children of remote (`url`) agents run: on their A2A agent, each activation one or more
 * A2A tasks in the child's conversation there. One `RemoteAgent` per URL and headers, so a card is
 * fetched once per run and its client reused by every child that calls it. It follows a child's
 * remote task from its record (`ref`) after a restart.
 */
export function a2aPlacement(options: RemoteAgentOptions): A2aPlacement {
  const agents = new Map<string, RemoteAgent>();
  const agent = (address: RemoteAgentAddress): RemoteAgent => {
    const key = JSON.stringify([address.url, address.headers ?? {}]);
    let found = agents.get(key);
    if (found === undefined) {
      found = new RemoteAgent(address, options);
      agents.set(key, found);
    }
    return found;
  };
  const executor = (spec: RemoteChildSpec, ref?: ExecutorRef) =>
    a2aExecutor(agent(spec.agent), spec, labelOf(spec), ref);
  return {
    kind: "a2a",
    agent,
    executor,
    takes: (spec) => spec.kind === "remote",
    follows: (ref) => ref.kind === "a2a" && ref.taskId !== undefined,
    async open({ spec, ref }) {
      if (spec.kind !== "remote") throw new Error(`agent "${spec.agent.name}" is not a remote agent`);
      return { executor: executor(spec, ref), model: labelOf(spec), discard: async () => {} };
    },
  };
}

export interface A2aPlacement extends ChildPlacement {
  /** One remote agent as this run sees it (its card, its client). */
  agent(address: RemoteAgentAddress): RemoteAgent;
  /** The executor of one remote child: a new one, or one known from its record's `ref`. */
  executor(spec: RemoteChildSpec, ref?: ExecutorRef): ChildExecutor;
}

/** Where a remote child runs, shown where a local child shows its model. */
function labelOf(spec: RemoteChildSpec): string {
  return `a2a:${spec.agent.url}`;
}
