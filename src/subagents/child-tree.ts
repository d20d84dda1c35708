import { AgentryError } from "../errors/agentry-error.ts";
import type { Message } from "../model/messages.ts";
import type { Child } from "./child.ts";

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
  private descendants = 0;
  private readonly numbers = new Map<string, number>();
  private readonly children = new Map<string, Child>();
  private readonly transcripts = new Map<string, readonly Message[]>();
  /** `task` calls in flight, by the caller's session: a child being started is not in the tree yet. */
  private readonly calls = new Map<string, Set<Promise<unknown>>>();
  /** Children being rebuilt from their records, so two calls for one id share one rebuild. */
  private readonly restoring = new Map<string, Promise<Child>>();

  constructor(maxDescendants: number) {
    this.maxDescendants = maxDescendants;
  }

  /** Children started so far (continuations not counted). */
  get started(): number {
    return this.descendants;
  }

  /** Counts a new child against `maxDescendants`; throws `DescendantLimitReachedError` at the cap. */
  reserveDescendant(): void {
    if (this.descendants >= this.maxDescendants) {
      throw new DescendantLimitReachedError(
        `Refused: this run already started ${this.descendants} subagents, the limit per run (maxDescendants ${this.maxDescendants}). ` +
          "Do the remaining work yourself, or continue an existing child with its task_id.",
      );
    }
    this.descendants++;
  }

  /** Gives back a reservation of a child that never started. */
  releaseDescendant(): void {
    this.descendants = Math.max(0, this.descendants - 1);
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
