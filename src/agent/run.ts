import type { AgentEvent } from "../contracts/events.ts";
import type { Outcome } from "../contracts/outcome.ts";
import type { AgentConfig } from "./config.ts";
import { runAgentLoop } from "./loop.ts";
import type { Session } from "./session/session.ts";

/** A started run: iterate it for its events (ending after `agent_end`), await `outcome` for the result. */
export interface AgentRun extends AsyncIterable<AgentEvent> {
  readonly outcome: Promise<Outcome>;
}

/**
 * Starts the loop at once. Events are buffered until read, so a consumer that starts iterating late
 * misses nothing; iterate once.
 */
export function runAgent(config: AgentConfig, session: Session, signal?: AbortSignal): AgentRun {
  const buffer: AgentEvent[] = [];
  let finished = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const outcome = runAgentLoop(
    config,
    session,
    (event) => {
      buffer.push(event);
      notify();
    },
    signal,
  ).finally(() => {
    finished = true;
    notify();
  });

  return {
    outcome,
    async *[Symbol.asyncIterator]() {
      while (true) {
        const event = buffer.shift();
        if (event) {
          yield event;
          continue;
        }
        if (finished) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}
