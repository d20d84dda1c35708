import type { AgentEvent } from "../../../../src/contracts/events.ts";
import type { Outcome } from "../../../../src/contracts/outcome.ts";
import type { AssistantMessage, Usage } from "../../../../src/model/messages.ts";

/** Builders for the events of an agent tree, so a test reads as the run it describes. */
export const usage = (input: number, output: number, cost?: number): Usage => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  ...(cost === undefined ? {} : { cost }),
});

const p = (path: string) => path.split("/");

export const start = (path: string, agentType: string, model: string, description?: string): AgentEvent => ({
  type: "agent_start",
  agentPath: p(path),
  sessionId: `s-${path}`,
  agentType,
  model,
  ...(description === undefined ? {} : { description }),
});

/** One model turn: turn_start, the reply (with its usage), turn_end. */
export const turn = (path: string, n: number, used: Usage): AgentEvent[] => {
  const message: AssistantMessage = {
    role: "assistant",
    content: [],
    stopReason: "stop",
    usage: used,
    model: "m",
  };
  return [
    { type: "turn_start", agentPath: p(path), turn: n },
    { type: "assistant_message", agentPath: p(path), message },
    { type: "turn_end", agentPath: p(path), turn: n, usage: used },
  ];
};

export const toolStart = (path: string, id: string, name: string, args: unknown): AgentEvent => ({
  type: "tool_start",
  agentPath: p(path),
  toolCallId: id,
  name,
  args,
});

export const toolEnd = (
  path: string,
  id: string,
  name: string,
  isError = false,
  preview = "ok",
): AgentEvent => ({
  type: "tool_end",
  agentPath: p(path),
  toolCallId: id,
  name,
  isError,
  preview,
  durationMs: 5,
});

export const progress = (path: string, id: string, update: string): AgentEvent => ({
  type: "tool_progress",
  agentPath: p(path),
  toolCallId: id,
  name: "task",
  update,
});

export const end = (
  path: string,
  status: Outcome["status"],
  extra: { turns?: number; error?: string; reason?: string } = {},
): AgentEvent => {
  const base = {
    text: "",
    turns: extra.turns ?? 1,
    usage: usage(0, 0),
    durationMs: 1,
    sessionId: `s-${path}`,
  };
  const outcome = (
    status === "error"
      ? { ...base, status, error: extra.error ?? "boom" }
      : status === "aborted" || status === "budget_exceeded"
        ? { ...base, status, reason: extra.reason ?? "stopped" }
        : { ...base, status }
  ) as Outcome;
  return { type: "agent_end", agentPath: p(path), outcome };
};

/** Stamps events one `stepMs` apart from `from`, as `buildAgentTree` takes them. */
export const timed = (events: AgentEvent[], from = 1_000, stepMs = 100) =>
  events.map((event, index) => ({ event, at: from + index * stepMs }));
