import { z } from "zod";
import type { AgentEvent } from "../contracts/events.ts";
import { outcomeSchema } from "../contracts/outcome.ts";
import type { Usage } from "../model/messages.ts";
import { usageSchema } from "../model/usage-schema.ts";

/**
 * How `agentry serve` tells an agentry client what its agent does, beyond A2A's task states: the
 * `agentry` key of a status update's metadata carries the served agent's progress events (turns,
 * tools, its own subagents' starts and ends) with paths relative to it, and the final update carries
 * its usage and turns. Other A2A clients ignore the key; an agentry client re-emits the events under
 * the remote child's path, so the live tree, stream-json and the run's token budget see the remote
 * work as they see local work. Version 1.
 */
export const PROGRESS_KEY = "agentry";

/** Events worth sending over the wire: no text deltas (the answer comes at the end), no messages. */
export type ForwardedEvent = z.infer<typeof forwardedEventSchema>;

const path = z.array(z.string()).max(32);

const forwardedEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("turn_start"), path, turn: z.number() }),
  z.object({ type: z.literal("turn_end"), path, turn: z.number(), usage: usageSchema }),
  z.object({ type: z.literal("tool_start"), path, toolCallId: z.string(), name: z.string() }),
  z.object({
    type: z.literal("tool_progress"),
    path,
    toolCallId: z.string(),
    name: z.string(),
    update: z.string(),
  }),
  z.object({
    type: z.literal("tool_end"),
    path,
    toolCallId: z.string(),
    name: z.string(),
    isError: z.boolean(),
    preview: z.string(),
    durationMs: z.number(),
  }),
  z.object({ type: z.literal("retry"), path, attempt: z.number(), delayMs: z.number(), error: z.string() }),
  z.object({
    type: z.literal("agent_start"),
    path,
    sessionId: z.string(),
    agentType: z.string(),
    model: z.string(),
    description: z.string().exactOptional(),
  }),
  z.object({ type: z.literal("agent_end"), path, outcome: outcomeSchema }),
]);

const progressSchema = z.object({
  v: z.literal(1),
  events: z.array(z.unknown()).max(1_000).exactOptional(),
  usage: usageSchema.exactOptional(),
  turns: z.number().int().nonnegative().exactOptional(),
});

export interface Progress {
  events?: ForwardedEvent[];
  usage?: Usage;
  turns?: number;
}

/**
 * The served agent's event as it goes on the wire, with its path relative to the served agent (`[]`
 * is the agent itself). Undefined for events that stay home: text and reasoning deltas, messages,
 * estimates, capacity waits, and the served agent's own start and end (its A2A task says those).
 */
export function forwardable(event: AgentEvent, servedPath: readonly string[]): ForwardedEvent | undefined {
  if (!startsWith(event.agentPath, servedPath)) return undefined;
  const relative = event.agentPath.slice(servedPath.length);
  switch (event.type) {
    case "turn_start":
      return { type: "turn_start", path: relative, turn: event.turn };
    case "turn_end":
      return { type: "turn_end", path: relative, turn: event.turn, usage: event.usage };
    case "tool_start":
      // Arguments stay home: they can hold whole files, and the client shows only the tool's name.
      return { type: "tool_start", path: relative, toolCallId: event.toolCallId, name: event.name };
    case "tool_progress":
      return { ...pick(event, ["toolCallId", "name", "update"]), type: "tool_progress", path: relative };
    case "tool_end":
      return {
        ...pick(event, ["toolCallId", "name", "isError", "preview", "durationMs"]),
        type: "tool_end",
        path: relative,
      };
    case "retry":
      return { ...pick(event, ["attempt", "delayMs", "error"]), type: "retry", path: relative };
    case "agent_start":
      if (relative.length === 0) return undefined;
      return {
        type: "agent_start",
        path: relative,
        sessionId: event.sessionId,
        agentType: event.agentType,
        model: event.model,
        ...(event.description === undefined ? {} : { description: event.description }),
      };
    case "agent_end":
      return relative.length === 0
        ? undefined
        : { type: "agent_end", path: relative, outcome: event.outcome };
    default:
      return undefined;
  }
}

/** The `agentry` metadata of a status update. */
export function progressMetadata(progress: Progress): Record<string, unknown> {
  return { [PROGRESS_KEY]: { v: 1, ...progress } };
}

/**
 * What an update's metadata says of the served agent's progress. Anything unreadable is left out:
 * progress only feeds displays and budgets, and the task's own state still decides the outcome.
 */
export function readProgress(metadata: Record<string, unknown> | undefined): Progress {
  const parsed = progressSchema.safeParse(metadata?.[PROGRESS_KEY]);
  if (!parsed.success) return {};
  const events = (parsed.data.events ?? []).flatMap((raw) => {
    const event = forwardedEventSchema.safeParse(raw);
    return event.success ? [event.data] : [];
  });
  return {
    ...(events.length > 0 ? { events } : {}),
    ...(parsed.data.usage === undefined ? {} : { usage: parsed.data.usage }),
    ...(parsed.data.turns === undefined ? {} : { turns: parsed.data.turns }),
  };
}

/** A forwarded event as an event of the remote child at `childPath`. */
export function relocate(event: ForwardedEvent, childPath: readonly string[]): AgentEvent {
  const { path: relative, ...rest } = event;
  const agentPath = [...childPath, ...relative];
  if (rest.type === "tool_start") return { ...rest, agentPath, args: {} };
  return { ...rest, agentPath } as AgentEvent;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) picked[key] = value[key];
  return picked;
}
