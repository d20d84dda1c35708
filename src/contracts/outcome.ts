import type { Usage } from "../model/messages.ts";

/** What every outcome carries, whatever the status. */
export interface OutcomeBase {
  /** The final assistant text ("" when the run ended without text). */
  text: string;
  turns: number;
  usage: Usage;
  durationMs: number;
  sessionId: string;
}

/**
 * Which budget stopped a run: its own token budget, its own wall-clock budget, or one of the whole
 * tree's (`agentry run --max-tokens/--max-cost/--timeout`).
 */
export type Budget = "tokens" | "time" | "tree";

/** The status of an ending and what only that status carries. */
export type OutcomeEnd =
  /** `stopReason`: a hook ended the run (Claude Code's `continue: false`), saying why. */
  | { status: "completed"; stopReason?: string }
  | { status: "max_turns" }
  | { status: "aborted"; reason: string }
  | { status: "error"; error: string; reason?: "stalled" }
  /** `budget` is absent in outcomes written before it existed. */
  | { status: "budget_exceeded"; reason: string; budget?: Budget };

/** How a run ended. */
export type Outcome = OutcomeBase & OutcomeEnd;

export type OutcomeStatus = Outcome["status"];
