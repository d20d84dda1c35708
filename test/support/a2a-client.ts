import type { AgentDefinition } from "../../src/agents/definition.ts";
import { a2aPlacement } from "../../src/remote/client/a2a-placement.ts";
import { CHILD_SPEC_VERSION, type RemoteChildSpec } from "../../src/subagents/child/child-spec.ts";
import type { ChildExecutor } from "../../src/subagents/run/executor.ts";

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
  return a2aPlacement({ env: options.env ?? {}, timeoutMs: options.timeoutMs ?? 5_000 }).executor(
    remoteSpec(url, {
      ...(options.headers === undefined ? {} : { headers: options.headers }),
      stallMs: options.stallMs ?? 10_000,
    }),
  );
}

/** The spec a parent describes a child of a remote agent at `url` with (`far-1` of `main`). */
export function remoteSpec(
  url: string,
  options: { headers?: Record<string, string>; stallMs?: number; taskId?: string; agentPath?: string[] } = {},
): RemoteChildSpec {
  const taskId = options.taskId ?? "sub-test";
  return {
    v: CHILD_SPEC_VERSION,
    kind: "remote",
    taskId,
    sessionId: taskId,
    parentSessionId: "parent",
    agentPath: options.agentPath ?? ["main", "far-1"],
    depth: 1,
    agent: {
      name: "far",
      description: "a remote helper",
      url,
      ...(options.headers === undefined ? {} : { headers: options.headers }),
    },
    limits: { maxTurns: 30, stallTimeoutMs: options.stallMs ?? 10_000 },
  };
}
