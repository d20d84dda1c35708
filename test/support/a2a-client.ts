import type { AgentDefinition } from "../../src/agents/definition.ts";
import { a2aExecutors } from "../../src/remote/remote-executors.ts";
import type { ChildExecutor } from "../../src/subagents/executor.ts";

/** A remote (A2A) agent definition named `far`, as an agent file with `url` gives it. */
export function remoteDefinition(url: string, headers?: Record<string, string>): AgentDefinition {
  return {
    name: "far",
    description: "a remote helper",
    prompt: "",
    mode: "subagent",
    url,
    ...(headers === undefined ? {} : { headers }),
    source: { kind: "project", format: "agentry", path: "/dev/null" },
  } as AgentDefinition;
}

export function remoteExecutor(
  url: string,
  options: {
    headers?: Record<string, string>;
    env?: Record<string, string>;
    timeoutMs?: number;
    stallMs?: number;
  } = {},
): ChildExecutor {
  return a2aExecutors({ env: options.env ?? {}, timeoutMs: options.timeoutMs ?? 5_000 }).executor({
    definition: remoteDefinition(url, options.headers),
    taskId: "sub-test",
    parentSessionId: "parent",
    agentPath: ["main", "far-1"],
    limits: { stallTimeoutMs: options.stallMs ?? 10_000 },
  });
}
