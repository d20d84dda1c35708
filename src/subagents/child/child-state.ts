import type { Outcome } from "../../contracts/outcome.ts";
import { AgentryError } from "../../errors/agentry-error.ts";

/**
 * Where a child is in its life. One closed union instead of flags: each state says what may happen
 * next (`nextState`), and `attached` / `delivered` say who learns the outcome — a caller waiting for
 * it (a sync `task`), or a `<task-notification>`.
 *
 * - `idle`: known, not working, no outcome in this process — rebuilt from its record after a restart.
 * - `queued`: asked to work (started or continued), waiting for a running slot. Record: PENDING.
 * - `running`: working; messages reach it at its next turn. Record: RUNNING.
 * - `finishing`: it stopped; its outcome is being recorded and it reads no more messages.
 * - `finished`: its record holds the outcome; it may be continued (back to `queued`).
 */
export type ChildState =
  | { status: "idle" }
  | { status: "queued"; attached: boolean }
  | { status: "running"; attached: boolean }
  | { status: "finishing"; outcome: Outcome; delivered: boolean }
  | { status: "finished"; outcome: Outcome; delivered: boolean };

export type ChildStatus = ChildState["status"];

/**
 * What can happen to a child. `send`, `interrupt` and `cancel` leave the status as it is (a cancelled
 * child ends with `end`, like any other); they are events so that the states they are illegal in are
 * refused in one place.
 */
export type ChildEvent =
  /** A caller gives it work again: its prompt, or a message for a child that had stopped. */
  | { type: "continue"; attached: boolean }
  /** It got a running slot. */
  | { type: "start" }
  /** A message for its next turn (`task_send`). */
  | { type: "send" }
  /** Stop the current step so it turns to its messages now (`task_send` with `interrupt`). */
  | { type: "interrupt" }
  /** Stop it (`task_cancel`, its parent's end, `agentry tasks cancel`). */
  | { type: "cancel" }
  /** The waiting caller gives up (its call timed out): the outcome goes out as a notification. */
  | { type: "detach" }
  /** Its activation ended with this outcome (queued: cancelled before it got a slot). */
  | { type: "end"; outcome: Outcome }
  /** The outcome is in its record. */
  | { type: "recorded" };

export type ChildEventType = ChildEvent["type"];

/** An event in a state where it cannot happen: a bug in the runtime, never a user's or model's doing. */
export class IllegalChildTransitionError extends AgentryError {
  override readonly name = "IllegalChildTransitionError";
  readonly kind = "system";
  readonly from: ChildStatus;
  readonly event: ChildEventType;

  constructor(taskId: string, from: ChildStatus, event: ChildEventType) {
    super(`subagent ${taskId}: "${event}" cannot happen while it is ${from}`);
    this.from = from;
    this.event = event;
  }
}

/** The state after `event`, or `undefined` when the event cannot happen in `state`. */
export function nextState(state: ChildState, event: ChildEvent): ChildState | undefined {
  switch (event.type) {
    case "continue":
      return state.status === "idle" || state.status === "finished"
        ? { status: "queued", attached: event.attached }
        : undefined;
    case "start":
      return state.status === "queued" ? { status: "running", attached: state.attached } : undefined;
    case "send":
    case "cancel":
      return state.status === "queued" || state.status === "running" ? state : undefined;
    case "interrupt":
      return state.status === "running" ? state : undefined;
    case "detach":
      return (state.status === "queued" || state.status === "running") && state.attached
        ? { ...state, attached: false }
        : undefined;
    case "end":
      return state.status === "queued" || state.status === "running"
        ? { status: "finishing", outcome: event.outcome, delivered: state.attached }
        : undefined;
    case "recorded":
      return state.status === "finishing"
        ? { status: "finished", outcome: state.outcome, delivered: state.delivered }
        : undefined;
  }
}

/** From the moment it is asked to work until its record holds the outcome. */
export function isActive(state: ChildState): boolean {
  return state.status === "queued" || state.status === "running" || state.status === "finishing";
}
