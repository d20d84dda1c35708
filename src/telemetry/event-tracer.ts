import type { AgentEvent, EventOf } from "../contracts/events.ts";
import type { SpanHandle, SpanSink } from "./span-sink.ts";
import { formatTraceParent, type TraceParent } from "./trace-context.ts";

export interface EventTracerOptions {
  /** The span the root agent's span hangs under (a caller's `traceparent`); none starts a trace. */
  parent?: TraceParent;
  /** Record messages, tool arguments and results on the spans (`gen_ai.*.messages`); off by default. */
  content?: boolean;
}

interface OpenTool {
  span: SpanHandle;
  name: string;
  description: string | undefined;
}

/** The agent types workflows give their nodes in the tree (`src/workflows/phase-nodes.ts`). */
const GROUPS: Record<string, string> = { workflow: "invoke_workflow", phase: "phase" };

/**
 * Turns a run's events — the whole tree's, as they reach the root's stream — into spans on
 * OpenTelemetry's GenAI conventions: `invoke_agent <type>` per agent (a child's under the `task` call
 * that started it), `chat <model>` per model call (usage, finish reason; retries and capacity waits as
 * events), `execute_tool <name>` per tool call, `invoke_workflow`/`phase` for workflows. Events alone
 * say everything, so no layer below knows tracing exists.
 */
export class EventTracer {
  private readonly sink: SpanSink;
  private readonly options: EventTracerOptions;
  private readonly agents = new Map<string, { span: SpanHandle; model: string }>();
  private readonly calls = new Map<string, SpanHandle>();
  private readonly tools = new Map<string, OpenTool>();
  /** Agents that run in another process (a worker, an A2A agent), which exports their spans. */
  private readonly elsewhere = new Set<string>();

  constructor(sink: SpanSink, options: EventTracerOptions = {}) {
    this.sink = sink;
    this.options = options;
  }

  /** The span of an agent of the tree, for a child that runs elsewhere to join the trace under it. */
  spanOf(agentPath: readonly string[]): SpanHandle | undefined {
    return this.agents.get(key(agentPath))?.span;
  }

  /**
   * The `traceparent` a child that runs elsewhere carries, so its spans join this trace where they
   * would hang here: under the parent's `task` call that started it (`description` tells two apart).
   */
  traceparentFor(childPath: readonly string[], description?: string): string | undefined {
    const call = this.taskCallOf(childPath, description);
    return call === undefined ? undefined : formatTraceParent(call.context);
  }

  event(event: AgentEvent): void {
    if (this.runsElsewhere(event.agentPath)) return;
    switch (event.type) {
      case "agent_start":
        this.agentStart(event);
        break;
      case "agent_end":
        this.agentEnd(event);
        break;
      case "turn_start":
        this.callStart(event);
        break;
      case "assistant_message":
        this.callEnd(event);
        break;
      case "retry":
        this.callEvent(event.agentPath, "retry", {
          "agentry.retry.attempt": event.attempt,
          "agentry.retry.delay_ms": event.delayMs,
          "error.message": event.error,
        });
        break;
      case "capacity_wait":
        this.callEvent(event.agentPath, "capacity_wait", {
          "agentry.capacity.reason": event.reason,
          "agentry.capacity.limit": event.limit,
          "agentry.capacity.in_flight": event.inFlight,
          "agentry.capacity.waiting": event.waiting,
        });
        break;
      case "capacity_granted":
        this.callEvent(event.agentPath, "capacity_granted", {
          "agentry.capacity.waited_ms": event.waitedMs,
          "agentry.capacity.limit": event.limit,
        });
        break;
      case "tool_start":
        this.toolStart(event);
        break;
      case "tool_end":
        this.toolEnd(event);
        break;
      case "compacted":
        this.agentEvent(event.agentPath, "compacted", {
          "agentry.compaction.tokens_before": event.tokensBefore,
          "agentry.compaction.tokens_after": event.tokensAfter,
        });
        break;
      default:
        break;
    }
  }

  /** Ends every span still open (a run that stopped mid-way), as failed. */
  close(reason = "the run ended before it"): void {
    for (const tool of this.tools.values()) tool.span.end({ error: reason });
    for (const call of this.calls.values()) call.end({ error: reason });
    for (const agent of [...this.agents.values()].reverse()) agent.span.end({ error: reason });
    this.tools.clear();
    this.calls.clear();
    this.agents.clear();
  }

  private agentStart(event: EventOf<"agent_start">): void {
    const path = key(event.agentPath);
    if (event.runsOn !== undefined) {
      // Its spans come from where it runs, under the task call (`traceparentFor`); its relayed events
      // would only repeat them here.
      this.elsewhere.add(path);
      this.taskCallOf(event.agentPath, event.description)?.setAttributes({
        "agentry.child.runs_on": event.runsOn,
      });
      return;
    }
    const operation = GROUPS[event.agentType] ?? "invoke_agent";
    const name = operation === "invoke_agent" ? event.agentType : (event.description ?? event.agentType);
    const [provider, model] = splitModel(event.model);
    const span = this.sink.start(`${operation} ${name}`, {
      parent: this.parentOf(event) ?? this.options.parent,
      attributes: {
        "gen_ai.operation.name": operation,
        "gen_ai.agent.name": event.agentType,
        "gen_ai.agent.id": event.sessionId,
        "gen_ai.conversation.id": event.sessionId,
        "gen_ai.agent.description": event.description,
        "gen_ai.provider.name": provider,
        "gen_ai.request.model": model,
        "agentry.agent.path": event.agentPath.join("/"),
        "agentry.parent_session_id": event.parentSessionId,
      },
    });
    this.agents.set(path, { span, model: event.model });
  }

  /** A child's span goes under the `task` call of its parent that started it, else under its parent. */
  private parentOf(event: EventOf<"agent_start">): SpanHandle | undefined {
    if (event.agentPath.length < 2) return undefined;
    return (
      this.taskCallOf(event.agentPath, event.description) ??
      this.agents.get(key(event.agentPath.slice(0, -1)))?.span
    );
  }

  /** The parent's open `task` call that started a child: the one with its description, else the latest. */
  private taskCallOf(childPath: readonly string[], description: string | undefined): SpanHandle | undefined {
    if (childPath.length < 2) return undefined;
    const parent = key(childPath.slice(0, -1));
    const calls = [...this.tools.entries()].filter(
      ([id, tool]) => id.startsWith(`${parent}\u0000`) && tool.name === "task",
    );
    const call =
      calls.find(([, tool]) => tool.description !== undefined && tool.description === description) ??
      calls.at(-1);
    return call?.[1].span;
  }

  private runsElsewhere(path: readonly string[]): boolean {
    if (this.elsewhere.size === 0) return false;
    for (let length = path.length; length > 0; length--)
      if (this.elsewhere.has(key(path.slice(0, length)))) return true;
    return false;
  }

  private agentEnd(event: EventOf<"agent_end">): void {
    const path = key(event.agentPath);
    for (const [id, tool] of this.tools) {
      if (id.startsWith(`${path}\u0000`)) {
        tool.span.end({ error: "the agent ended first" });
        this.tools.delete(id);
      }
    }
    this.calls.get(path)?.end({ error: "the agent ended first" });
    this.calls.delete(path);
    const agent = this.agents.get(path);
    if (agent === undefined) return;
    const { outcome } = event;
    agent.span.setAttributes({
      "agentry.outcome": outcome.status,
      "agentry.turns": outcome.turns,
      "gen_ai.usage.input_tokens": outcome.usage.input + outcome.usage.cacheRead + outcome.usage.cacheWrite,
      "gen_ai.usage.output_tokens": outcome.usage.output,
      "agentry.usage.cost_usd": outcome.usage.cost,
    });
    agent.span.end(outcome.status === "completed" ? {} : { error: describeOutcome(outcome) });
    this.agents.delete(path);
  }

  private callStart(event: EventOf<"turn_start">): void {
    const path = key(event.agentPath);
    const agent = this.agents.get(path);
    if (agent === undefined) return;
    this.calls.get(path)?.end({ error: "a new turn began" });
    const [provider, model] = splitModel(agent.model);
    this.calls.set(
      path,
      this.sink.start(`chat ${model ?? agent.model}`, {
        kind: "client",
        parent: agent.span,
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": provider,
          "gen_ai.request.model": model,
          "agentry.turn": event.turn,
        },
      }),
    );
  }

  private callEnd(event: EventOf<"assistant_message">): void {
    const path = key(event.agentPath);
    const call = this.calls.get(path);
    if (call === undefined) return;
    const { message } = event;
    const [, model] = splitModel(message.model);
    call.setAttributes({
      "gen_ai.response.model": model,
      "gen_ai.response.finish_reasons": [message.stopReason],
      "gen_ai.usage.input_tokens": message.usage.input + message.usage.cacheRead + message.usage.cacheWrite,
      "gen_ai.usage.output_tokens": message.usage.output,
      "gen_ai.usage.cache_read.input_tokens": message.usage.cacheRead,
      "gen_ai.usage.cache_creation.input_tokens": message.usage.cacheWrite,
      "agentry.usage.cost_usd": message.usage.cost,
      ...(this.options.content ? { "gen_ai.output.messages": JSON.stringify([message]) } : {}),
    });
    call.end(
      message.stopReason === "error" || message.stopReason === "aborted"
        ? { error: message.errorMessage ?? message.stopReason }
        : {},
    );
    this.calls.delete(path);
  }

  private toolStart(event: EventOf<"tool_start">): void {
    const agent = this.agents.get(key(event.agentPath));
    const args = event.args as { description?: unknown } | undefined;
    const span = this.sink.start(`execute_tool ${event.name}`, {
      ...(agent === undefined ? {} : { parent: agent.span }),
      attributes: {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": event.name,
        "gen_ai.tool.call.id": event.toolCallId,
        "gen_ai.tool.type": event.name.startsWith("mcp__") ? "extension" : "function",
        ...(this.options.content ? { "gen_ai.tool.call.arguments": JSON.stringify(event.args) } : {}),
      },
    });
    this.tools.set(toolKey(event.agentPath, event.toolCallId), {
      span,
      name: event.name,
      description: typeof args?.description === "string" ? args.description : undefined,
    });
  }

  private toolEnd(event: EventOf<"tool_end">): void {
    const id = toolKey(event.agentPath, event.toolCallId);
    const tool = this.tools.get(id);
    if (tool === undefined) return;
    if (this.options.content) tool.span.setAttributes({ "gen_ai.tool.call.result": event.preview });
    tool.span.end(event.isError ? { error: event.preview } : {});
    this.tools.delete(id);
  }

  private callEvent(
    agentPath: readonly string[],
    name: string,
    attributes: Record<string, string | number>,
  ): void {
    const span = this.calls.get(key(agentPath)) ?? this.agents.get(key(agentPath))?.span;
    span?.addEvent(name, attributes);
  }

  private agentEvent(agentPath: readonly string[], name: string, attributes: Record<string, number>): void {
    this.agents.get(key(agentPath))?.span.addEvent(name, attributes);
  }
}

const key = (path: readonly string[]) => path.join("/");
const toolKey = (path: readonly string[], id: string) => `${key(path)}\u0000${id}`;

/** `anthropic:claude-x` → [anthropic, claude-x]; a group node's empty model → nothing. */
function splitModel(id: string): [string | undefined, string | undefined] {
  if (id === "") return [undefined, undefined];
  const at = id.indexOf(":");
  return at === -1 ? [undefined, id] : [id.slice(0, at), id.slice(at + 1)];
}

function describeOutcome(outcome: EventOf<"agent_end">["outcome"]): string {
  if ("error" in outcome && typeof outcome.error === "string") return outcome.error;
  if ("reason" in outcome && typeof outcome.reason === "string")
    return `${outcome.status}: ${outcome.reason}`;
  return outcome.status;
}
