import type { AgentEvent } from "../contracts/events.ts";

/** An event without its `agentPath`, which the emitter fills in. */
export type EventBody = AgentEvent extends infer E
  ? E extends AgentEvent
    ? Omit<E, "agentPath">
    : never
  : never;

/**
 * Binds the run's sink to this agent's path. A throwing listener is a UI bug, not a reason to lose the
 * run, so its errors are swallowed here.
 */
export function pathEmitter(sink: (event: AgentEvent) => void, agentPath: string[]) {
  const forward = (event: AgentEvent): void => {
    try {
      sink(event);
    } catch {
      // see above
    }
  };
  const emit = (event: EventBody): void => forward({ ...event, agentPath } as AgentEvent);
  return { emit, forward };
}
