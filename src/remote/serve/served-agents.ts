import type { ChildExecutor } from "../../subagents/placement.ts";

/**
 * What `agentry serve` offers over A2A: the agents of a workspace, and a fresh conversation with one
 * of them. The server only knows this seam; the CLI builds it (each conversation a child with its own
 * session, rules, sandbox and limits, run by the in-process executor), and tests build it around a
 * scripted model.
 */
export interface ServedAgents {
  /** The agents to serve, each its own card and URL (`/agents/<name>`). */
  readonly agents: readonly ServedAgentInfo[];
  /**
   * A conversation with agent `name`: one A2A context. Its executor keeps the history between the
   * context's tasks; `close` lets go of what it holds (the server stops, or lets an idle context go).
   * With `resume`, the conversation of an earlier process or an idle context taken up again from that
   * session's transcript; it throws when the session cannot be resumed.
   */
  open(name: string, context: { contextId: string; resume?: string }): Promise<ServedChild>;
}

export interface ServedAgentInfo {
  name: string;
  description: string;
}

export interface ServedChild {
  executor: ChildExecutor;
  /** The path its events carry: forwarded to the client relative to it. */
  agentPath: readonly string[];
  /** Its session id (its transcript), shown in the task's record. */
  sessionId: string;
  /** Its model's id, for the task's record. */
  model: string;
}
