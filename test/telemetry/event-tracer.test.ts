import { expect, it } from "vitest";
import type { AgentEvent } from "../../src/contracts/events.ts";
import { emptyUsage } from "../../src/model/messages.ts";
import { EventTracer } from "../../src/telemetry/event-tracer.ts";
import type { SpanAttributes, SpanHandle, SpanSink } from "../../src/telemetry/span-sink.ts";
import { formatTraceParent, parseTraceParent } from "../../src/telemetry/trace-context.ts";

interface MemorySpan {
  name: string;
  id: string;
  parent: string | undefined;
  attributes: SpanAttributes;
  events: string[];
  ended: boolean;
  error: string | undefined;
}

/** A sink that keeps spans in memory, ids counted. */
function memorySink(): SpanSink & { spans: MemorySpan[] } {
  const spans: MemorySpan[] = [];
  let next = 1;
  return {
    spans,
    start(name, options = {}) {
      const id = String(next++).padStart(16, "0");
      const parent =
        options.parent === undefined
          ? undefined
          : "traceId" in options.parent
            ? `remote:${options.parent.spanId}`
            : options.parent.context.spanId;
      const span: MemorySpan = {
        name,
        id,
        parent,
        attributes: { ...options.attributes },
        events: [],
        ended: false,
        error: undefined,
      };
      spans.push(span);
      const handle: SpanHandle = {
        context: { traceId: "1".repeat(32), spanId: id, flags: 1 },
        setAttributes: (attributes) => Object.assign(span.attributes, attributes),
        addEvent: (event) => span.events.push(event),
        end: (status) => {
          span.ended = true;
          span.error = status?.error;
        },
      };
      return handle;
    },
    flush: async () => {},
    shutdown: async () => {},
  };
}

const usage = { ...emptyUsage(), input: 100, output: 20, cacheRead: 50 };
const start = (
  path: string[],
  agentType: string,
  extra: Partial<AgentEvent & { type: "agent_start" }> = {},
): AgentEvent => ({
  type: "agent_start",
  agentPath: path,
  sessionId: `s-${path.join("-")}`,
  agentType,
  model: "anthropic:claude-x",
  ...extra,
});
const assistant = (path: string[]): AgentEvent => ({
  type: "assistant_message",
  agentPath: path,
  message: {
    role: "assistant",
    content: [{ type: "text", text: "ok" }],
    stopReason: "stop",
    usage,
    model: "anthropic:claude-x",
  },
});
const end = (path: string[], status: "completed" | "error" = "completed"): AgentEvent => ({
  type: "agent_end",
  agentPath: path,
  outcome:
    status === "completed"
      ? { status, text: "ok", turns: 1, usage, durationMs: 5, sessionId: "s" }
      : { status, error: "boom", text: "", turns: 1, usage, durationMs: 5, sessionId: "s" },
});

it("nests a run's spans as its tree: agent → chat and tools; a child under the task call that started it", () => {
  const sink = memorySink();
  const tracer = new EventTracer(sink, {
    parent: { traceId: "a".repeat(32), spanId: "b".repeat(16), flags: 1 },
  });
  const events: AgentEvent[] = [
    start(["main"], "main"),
    { type: "turn_start", agentPath: ["main"], turn: 1 },
    { type: "retry", agentPath: ["main"], attempt: 1, delayMs: 10, error: "overloaded" },
    assistant(["main"]),
    {
      type: "tool_start",
      agentPath: ["main"],
      toolCallId: "t1",
      name: "task",
      args: { description: "look at auth" },
    },
    {
      type: "tool_start",
      agentPath: ["main"],
      toolCallId: "t2",
      name: "task",
      args: { description: "look at billing" },
    },
    start(["main", "explore-2"], "explore", { description: "look at billing", parentSessionId: "s-main" }),
    start(["main", "explore-1"], "explore", { description: "look at auth" }),
    { type: "turn_start", agentPath: ["main", "explore-1"], turn: 1 },
    assistant(["main", "explore-1"]),
    end(["main", "explore-1"]),
    end(["main", "explore-2"], "error"),
    {
      type: "tool_end",
      agentPath: ["main"],
      toolCallId: "t1",
      name: "task",
      isError: false,
      preview: "auth done",
      durationMs: 3,
    },
    {
      type: "tool_end",
      agentPath: ["main"],
      toolCallId: "t2",
      name: "task",
      isError: true,
      preview: "child failed",
      durationMs: 3,
    },
    end(["main"]),
  ];
  for (const event of events) tracer.event(event);
  const byName = (name: string) => sink.spans.filter((span) => span.name === name);
  const [root] = byName("invoke_agent main");
  const [call] = byName("chat claude-x");
  const tasks = byName("execute_tool task");
  const children = byName("invoke_agent explore");
  expect(root?.parent).toBe(`remote:${"b".repeat(16)}`);
  expect(call?.parent).toBe(root?.id);
  expect(call?.events).toEqual(["retry"]);
  expect(call?.attributes).toMatchObject({
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": "anthropic",
    "gen_ai.request.model": "claude-x",
    "gen_ai.usage.input_tokens": 150,
    "gen_ai.usage.output_tokens": 20,
    "gen_ai.response.finish_reasons": ["stop"],
  });
  expect(tasks.map((task) => task.parent)).toEqual([root?.id, root?.id]);
  // Each child under the task call of its description, whatever order they started in.
  const child = (description: string) =>
    children.find((span) => span.attributes["gen_ai.agent.description"] === description);
  expect(child("look at auth")?.parent).toBe(tasks[0]?.id);
  expect(child("look at billing")?.parent).toBe(tasks[1]?.id);
  expect(child("look at billing")?.error).toBe("boom");
  expect(child("look at auth")?.attributes).toMatchObject({
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": "explore",
    "gen_ai.agent.id": "s-main-explore-1",
    "agentry.outcome": "completed",
  });
  expect(tasks[1]?.error).toBe("child failed");
  expect(sink.spans.every((span) => span.ended)).toBe(true);
});

it("records content only when asked, and ends what a stopped run left open", () => {
  const sink = memorySink();
  const tracer = new EventTracer(sink);
  tracer.event(start(["main"], "main"));
  tracer.event({
    type: "tool_start",
    agentPath: ["main"],
    toolCallId: "t",
    name: "bash",
    args: { command: "cat secret" },
  });
  tracer.close();
  expect(
    sink.spans.find((span) => span.name === "execute_tool bash")?.attributes["gen_ai.tool.call.arguments"],
  ).toBeUndefined();
  expect(sink.spans.map((span) => [span.ended, span.error])).toEqual([
    [true, "the run ended before it"],
    [true, "the run ended before it"],
  ]);
  const withContent = memorySink();
  const verbose = new EventTracer(withContent, { content: true });
  verbose.event(start(["main"], "main"));
  verbose.event({
    type: "tool_start",
    agentPath: ["main"],
    toolCallId: "t",
    name: "bash",
    args: { command: "ls" },
  });
  expect(withContent.spans[1]?.attributes["gen_ai.tool.call.arguments"]).toBe('{"command":"ls"}');
});

it("reads and writes W3C traceparent, refusing what is not one", () => {
  const text = `00-${"ab".repeat(16)}-${"cd".repeat(8)}-01`;
  expect(formatTraceParent(parseTraceParent(text) ?? { traceId: "", spanId: "", flags: 0 })).toBe(text);
  for (const bad of [
    "",
    "01-x",
    `00-${"0".repeat(32)}-${"cd".repeat(8)}-01`,
    `00-${"ab".repeat(16)}-${"0".repeat(16)}-01`,
    "00-zz",
  ])
    expect(parseTraceParent(bad)).toBeUndefined();
});

it("a child that runs elsewhere: its spans come from there, under the task call whose traceparent it carries", () => {
  const sink = memorySink();
  const tracer = new EventTracer(sink);
  const task = (id: string, description: string): AgentEvent => ({
    type: "tool_start",
    agentPath: ["main"],
    toolCallId: id,
    name: "task",
    args: { description },
  });
  tracer.event(start(["main"], "main"));
  tracer.event(task("t1", "run on the fleet"));
  tracer.event(task("t2", "ask the reviewer"));
  const [, fleetCall, reviewerCall] = sink.spans;
  expect(tracer.traceparentFor(["main", "worker-1"], "run on the fleet")).toBe(
    `00-${"1".repeat(32)}-${fleetCall?.id}-01`,
  );
  expect(tracer.traceparentFor(["main", "reviewer-1"], "ask the reviewer")).toContain(
    `-${reviewerCall?.id}-`,
  );
  // Without a matching description, the latest open task call; a root has none.
  expect(tracer.traceparentFor(["main", "x-1"])).toContain(`-${reviewerCall?.id}-`);
  expect(tracer.traceparentFor(["main"])).toBeUndefined();

  tracer.event(
    start(["main", "worker-1"], "worker", { description: "run on the fleet", runsOn: "queue agentry" }),
  );
  // Relayed from the worker: the worker exports these itself, so they make no span here.
  tracer.event({ type: "turn_start", agentPath: ["main", "worker-1"], turn: 1 });
  tracer.event(assistant(["main", "worker-1"]));
  tracer.event(start(["main", "worker-1", "explore-1"], "explore"));
  tracer.event(end(["main", "worker-1", "explore-1"]));
  tracer.event(end(["main", "worker-1"]));
  // A local child beside it still gets its spans.
  tracer.event(start(["main", "explore-1"], "explore", { description: "ask the reviewer" }));
  tracer.event(end(["main", "explore-1"]));

  expect(sink.spans.map((span) => span.name)).toEqual([
    "invoke_agent main",
    "execute_tool task",
    "execute_tool task",
    "invoke_agent explore",
  ]);
  expect(fleetCall?.attributes["agentry.child.runs_on"]).toBe("queue agentry");
  expect(sink.spans[3]?.parent).toBe(reviewerCall?.id);
});
