import type { Usage } from "../model/messages.ts";

interface OutcomeBase {
  /** The final assistant text ("" when the run ended without text). */
  text: string;
  turns: number;
  usage: Usage;
  durationMs: number;
  sessionId: string;
}

/** How a run ended. */
export type Outcome = OutcomeBase &
  (
    | { status: "completed" }
    | { status: "max_turns" }
    | { status: "aborted"; reason: string }
    | { status: "error"; error: string; reason?: "stalled" }
    | { status: "budget_exceeded"; reason: string }
  );

export type OutcomeStatus = Outcome["status"];
