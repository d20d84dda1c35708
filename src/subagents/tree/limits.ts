import { z } from "zod";
import { AgentryError } from "../../errors/agentry-error.ts";

/** Limits of one subagent tree (one root). All configurable; see DESIGN §3 "Limits". */
export interface SubagentLimits {
  /** How deep the tree may grow: 1 = the root's children cannot spawn. */
  maxDepth: number;
  /** Children running at once per root; the rest wait in a FIFO queue. */
  maxConcurrent: number;
  /** Children ever started per root (continuations do not count), so a runaway tree cannot happen. */
  maxDescendants: number;
  /** Turns per child when its definition does not say. */
  maxTurns: number;
  /**
   * How long a sync `task` call waits for its child. After it the child is promoted to the
   * background (it keeps running, its parent is notified when it finishes) instead of being lost.
   */
  timeoutMs: number;
  /** A child with no model or tool activity for this long fails (the stall watchdog). */
  stallTimeoutMs: number;
  /** Tokens (input + output + cache) per child run; unset = no budget. */
  maxTokens?: number;
  /** Wall-clock budget per child run (sync or background); unset = none. Ends it FAILED `timeout`. */
  maxDurationMs?: number;
  /** How often a running child's owner writes its heartbeat (`updatedAt`) and checks for cancels. */
  heartbeatMs: number;
  /** How often the owner polls the store for `cancelRequested` (set by `agentry tasks cancel`). */
  cancelPollMs: number;
  /** A PENDING/RUNNING task whose owner is gone or silent this long is FAILED `orphaned` by the sweeper. */
  orphanTimeoutMs: number;
}

export const DEFAULT_SUBAGENT_LIMITS: Readonly<SubagentLimits> = Object.freeze({
  maxDepth: 1,
  maxConcurrent: 64,
  maxDescendants: 64,
  maxTurns: 30,
  timeoutMs: 10 * 60 * 1000,
  stallTimeoutMs: 10 * 60 * 1000,
  heartbeatMs: 2_000,
  cancelPollMs: 250,
  orphanTimeoutMs: 30_000,
});

const whole = (min: number) => z.number().int().min(min);

/** The `subagents` section of agentry.json (every key optional; defaults above). */
export const subagentLimitsSchema = z.strictObject({
  maxDepth: whole(0).optional(),
  maxConcurrent: whole(1).optional(),
  maxDescendants: whole(0).optional(),
  maxTurns: whole(1).optional(),
  timeoutMs: whole(1).optional(),
  stallTimeoutMs: whole(1).optional(),
  maxTokens: whole(1).optional(),
  maxDurationMs: whole(1).optional(),
  heartbeatMs: whole(10).optional(),
  cancelPollMs: whole(10).optional(),
  orphanTimeoutMs: whole(100).optional(),
});

export type SubagentLimitsInput = z.input<typeof subagentLimitsSchema>;

/** A limit in the configuration (or `SubagentOptions.limits`) that is not a valid value. */
export class SubagentLimitsConfigError extends AgentryError {
  override readonly name = "SubagentLimitsConfigError";
  readonly kind = "user";
}

/** Fills the defaults in; throws `SubagentLimitsConfigError` naming each bad key. */
export function resolveLimits(input: Partial<SubagentLimits> = {}): SubagentLimits {
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const parsed = subagentLimitsSchema.safeParse(defined);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.map(String).join(".") || "limits"}: ${issue.message}`)
      .join("; ");
    throw new SubagentLimitsConfigError(`Invalid subagent limits: ${problems}`);
  }
  const limits: SubagentLimits = { ...DEFAULT_SUBAGENT_LIMITS };
  for (const [key, value] of Object.entries(parsed.data)) {
    if (value !== undefined) limits[key as keyof SubagentLimits] = value;
  }
  // A live owner must beat several times within the orphan timeout, or the sweeper would fail its tasks.
  if (limits.heartbeatMs * 3 > limits.orphanTimeoutMs) {
    throw new SubagentLimitsConfigError(
      `Invalid subagent limits: orphanTimeoutMs (${limits.orphanTimeoutMs}) must be at least 3 × heartbeatMs (${limits.heartbeatMs}).`,
    );
  }
  return limits;
}
