import { z } from "zod";
import type { AgentEvent } from "../contracts/events.ts";

/**
 * What a worker publishes on a job's event channel: the child's events in order, then `end` once it
 * published the last (the job's end is heard on BullMQ's own stream, which may overtake them).
 */
export type StreamMessage = { type: "event"; event: AgentEvent } | { type: "end" };

// An event is checked for its envelope only: its body is the same agentry's `AgentEvent` on both sides
// of one fleet, and a field this parent does not know is passed on as it is.
const streamSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("event"),
    event: z.looseObject({ type: z.string().min(1), agentPath: z.array(z.string()) }),
  }),
  z.object({ type: z.literal("end") }),
]);

/** A message as published; undefined for anything else (it is skipped). */
export function parseStreamMessage(text: string): StreamMessage | undefined {
  try {
    const parsed = streamSchema.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as StreamMessage) : undefined;
  } catch {
    return undefined;
  }
}
