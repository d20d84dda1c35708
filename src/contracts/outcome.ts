import { z } from "zod";
import type { Usage } from "../model/messages.ts";
import { usageSchema } from "../model/usage-schema.ts";

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

const base = {
  text: z.string(),
  turns: z.number(),
  usage: usageSchema,
  durationMs: z.number(),
  sessionId: z.string(),
};

/**
 * An outcome read back from outside this process — a transcript line, a queue worker's result, a
 * served agent's progress — parsed as it is typed above (the proof below keeps the two the same).
 */
export const outcomeSchema = z.discriminatedUnion("status", [
  z.object({ ...base, status: z.literal("completed"), stopReason: z.string().exactOptional() }),
  z.object({ ...base, status: z.literal("max_turns") }),
  z.object({ ...base, status: z.literal("aborted"), reason: z.string() }),
  z.object({
    ...base,
    status: z.literal("error"),
    error: z.string(),
    reason: z.literal("stalled").exactOptional(),
  }),
  z.object({
    ...base,
    status: z.literal("budget_exceeded"),
    reason: z.string(),
    budget: z.enum(["tokens", "time", "tree"]).exactOptional(),
  }),
]);

// Compile-time proof that the schema describes exactly the type.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** An intersection-built union spelled out as plain objects, so `Same` can compare it. */
type Flat<T> = T extends unknown ? { [K in keyof T]: T[K] } : never;
const schemaMatchesType: Same<z.infer<typeof outcomeSchema>, Flat<Outcome>> = true;
void schemaMatchesType;
