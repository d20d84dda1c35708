import { AgentryError } from "../../errors/agentry-error.ts";
import type { Message } from "../../model/messages.ts";
import { errorMessage } from "../../text/error-message.ts";
import type { Child } from "../child/child.ts";
import { type DescendantCount, localDescendantCount } from "./descendant-count.ts";

/** The model asked for one more child than a run may start (`maxDescendants`). */
export class DescendantLimitReachedError extends AgentryError {
  override readonly name = "DescendantLimitReachedError";
  readonly kind = "model";
}

/**
 * The children one root's tree has in this process, and its bookkeeping: lookup by task_id and by
 * parent, numbering (`explore-1`, `explore-2` …, unique in the tree so agent paths never collide),
 * the cap on descendants, the `task` calls in flight and each agent's latest transcript (for `fork`).
 * It runs nothing and stores nothing.
 */
export class ChildTree {
  private readonly maxDescendants: number;
  /** Where the cap is counted (this process, or the fleet's store): what `started` does not see. */
  private readonly count: DescendantCount;
  private descendants = 0;
  private readonly numbers = new Map<string, number>();
  private readonly children = new Map<string, Child>();
  private readonly transcripts = new Map<string, readonly Message[]>();
  /** `task` calls in flight, by the caller's session: a child being started is not in the tree yet. */
  private readonly calls = new Map<string, Set<Promise<unknown>>>();
  /** Children being rebuilt from their records, so two calls for one id share one rebuild. */
  private readonly restoring = new Map<string, Promise<Child>>();

  constructor(maxDescendants: number, count: DescendantCount = localDescendantCount()) {
    this.maxDescendants = maxDescendants;
    this.count = count;
  }

  /** The tree's id, which its children's specs carry (a worker counts their children into it). */
  get treeId(): string {
    return this.count.treeId;
  }

  /** Children started so far in this process (continuations not counted). */
  get started(): number {
    return this.descendants;
  }

  /**
   * Counts a new child against `maxDescendants` — across machines when the tree's count is shared —
   * and throws `DescendantLimitReachedError` at the cap, or when the count cannot be read (fail closed).
   */
  async reserveDescendant(): Promise<void> {
    let fits: boolean;
    try {
      fits = await this.count.reserve(this.maxDescendants);
    } catch (error) {
      throw new DescendantLimitReachedError(
        `Refused: this run's count of subagents (maxDescendants ${this.maxDescendants}) cannot be checked now (${errorMessage(error)}). Do the work yourself, or try again later.`,
        { cause: error },
      );
    }
    if (!fits) {
      throw new DescendantLimitReachedError(
        `Refused: this run already started ${this.maxDescendants} subagents, the limit per run (maxDescendants ${this.maxDescendants}). ` +
          "Do the remaining work yourself, or continue an existing child with its task_id.",
      );
    }
    this.descendants++;
  }

  /** Gives back a reservation of a child that never started. */
  async releaseDescendant(): Promise<void> {
    this.descendants = Math.max(0, this.descendants - 1);
    await this.count.release().catch(() => {});
  }

  /** The next agent path segment for a child of this type: `explore-3`. */
  nextName(agentType: string): string {
    const next = (this.numbers.get(agentType) ?? 0) + 1;
    this.numbers.set(agentType, next);
    return `${agentType}-${next}`;
  }

  /** A child restored from its record keeps its name; new children of its type count on from it. */
  noteName(agentType: string, name: string): void {
    const taken = Number(/-(\d+)$/.exec(name)?.[1]);
    if (Number.isSafeInteger(taken) && taken > (this.numbers.get(agentType) ?? 0))
      this.numbers.set(agentType, taken);
  }

  add(child: Child): void {
    this.children.set(child.taskId, child);
  }

  get(taskId: string): Child | undefined {
    return this.children.get(taskId);
  }

  all(): Child[] {
    return [...this.children.values()];
  }

  /** The children `parentSessionId` started (in this process). */
  childrenOf(parentSessionId: string): Child[] {
    return this.all().filter((child) => child.parentSessionId === parentSessionId);
  }

  /** Every descendant of a child here (children of its session, recursively). */
  descendantsOf(taskId: string): Child[] {
    const child = this.children.get(taskId);
    if (!child) return [];
    return this.childrenOf(child.sessionId).flatMap((next) => [next, ...this.descendantsOf(next.taskId)]);
  }

  /** One rebuild per task_id at a time: a second call for the same id gets the first's. */
  restoreOnce(taskId: string, rebuild: () => Promise<Child>): Promise<Child> {
    const pending = this.restoring.get(taskId);
    if (pending) return pending;
    const started = rebuild()
      .then((child) => {
        this.add(child);
        return child;
      })
      .finally(() => this.restoring.delete(taskId));
    this.restoring.set(taskId, started);
    return started;
  }

  /** Keeps a `task` call of `parentSessionId` in view until it returns (see `callsOf`). */
  trackCall<T>(parentSessionId: string, call: Promise<T>): Promise<T> {
    const calls = this.calls.get(parentSessionId) ?? new Set();
    this.calls.set(parentSessionId, calls);
    const tracked = call.finally(() => {
      calls.delete(tracked);
      if (calls.size === 0) this.calls.delete(parentSessionId);
    });
    calls.add(tracked);
    return tracked;
  }

  /** The `task` calls of `parentSessionId` still in flight, starting or waiting for a child. */
  callsOf(parentSessionId: string): Promise<unknown>[] {
    return [...(this.calls.get(parentSessionId) ?? [])];
  }

  /** The transcript of an agent in this tree as its last model call saw it (for `fork`). */
  transcriptOf(sessionId: string): readonly Message[] | undefined {
    return this.transcripts.get(sessionId);
  }

  trackTranscript(sessionId: string, messages: readonly Message[]): void {
    this.transcripts.set(sessionId, messages);
  }
}
