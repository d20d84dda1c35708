import type { AgentEvent } from "../../contracts/events.ts";

/**
 * While a model call of the run or of one of its descendants waits for its endpoint's capacity
 * (`capacity_wait` until `capacity_granted`, or the end of that agent's turn or run), the run's stall
 * timer stands still: waiting in line is not a stall. The run's own waits also stop its wall-clock
 * budget; a descendant's do not, since the run may be doing other work meanwhile.
 */
export function capacityHolds(ownPath: readonly string[], hold: (scope: "stall" | "all") => () => void) {
  const own = ownPath.join("/");
  const held = new Map<string, () => void>();
  return {
    observe(event: AgentEvent): void {
      const key = event.agentPath.join("/");
      if (event.type === "capacity_wait") {
        if (!held.has(key)) held.set(key, hold(key === own ? "all" : "stall"));
        return;
      }
      if (event.type === "capacity_granted" || event.type === "turn_end" || event.type === "agent_end") {
        held.get(key)?.();
        held.delete(key);
      }
    },
    dispose(): void {
      for (const release of held.values()) release();
      held.clear();
    },
  };
}
