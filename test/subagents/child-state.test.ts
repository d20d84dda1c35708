import { describe, expect, it } from "vitest";
import type { Outcome } from "../../src/contracts/outcome.ts";
import { emptyUsage } from "../../src/model/messages.ts";
import {
  type ChildEvent,
  type ChildEventType,
  type ChildState,
  type ChildStatus,
  isActive,
  nextState,
} from "../../src/subagents/child/child-state.ts";

const outcome: Outcome = {
  status: "completed",
  text: "done",
  turns: 1,
  usage: emptyUsage(),
  durationMs: 5,
  sessionId: "sub-1",
};
const cancelled: Outcome = {
  ...outcome,
  status: "aborted",
  reason: "cancelled by its parent (task_cancel)",
  text: "",
};

const STATES = {
  idle: { status: "idle" },
  "queued, attached": { status: "queued", attached: true },
  "queued, background": { status: "queued", attached: false },
  "running, attached": { status: "running", attached: true },
  "running, background": { status: "running", attached: false },
  "finishing, delivered": { status: "finishing", outcome, delivered: true },
  "finishing, to notify": { status: "finishing", outcome, delivered: false },
  "finished, delivered": { status: "finished", outcome, delivered: true },
  "finished, to notify": { status: "finished", outcome, delivered: false },
} satisfies Record<string, ChildState>;

const EVENTS: Record<ChildEventType, ChildEvent> = {
  continue: { type: "continue", attached: true },
  start: { type: "start" },
  send: { type: "send" },
  interrupt: { type: "interrupt" },
  cancel: { type: "cancel" },
  detach: { type: "detach" },
  end: { type: "end", outcome: cancelled },
  recorded: { type: "recorded" },
};

/** Every legal transition; any (state, event) pair not listed here must be refused. */
const LEGAL: Record<string, Partial<Record<ChildEventType, ChildState>>> = {
  idle: { continue: { status: "queued", attached: true } },
  "queued, attached": {
    start: { status: "running", attached: true },
    send: STATES["queued, attached"],
    cancel: STATES["queued, attached"],
    detach: { status: "queued", attached: false },
    end: { status: "finishing", outcome: cancelled, delivered: true },
  },
  "queued, background": {
    start: { status: "running", attached: false },
    send: STATES["queued, background"],
    cancel: STATES["queued, background"],
    end: { status: "finishing", outcome: cancelled, delivered: false },
  },
  "running, attached": {
    send: STATES["running, attached"],
    interrupt: STATES["running, attached"],
    cancel: STATES["running, attached"],
    detach: { status: "running", attached: false },
    end: { status: "finishing", outcome: cancelled, delivered: true },
  },
  "running, background": {
    send: STATES["running, background"],
    interrupt: STATES["running, background"],
    cancel: STATES["running, background"],
    end: { status: "finishing", outcome: cancelled, delivered: false },
  },
  "finishing, delivered": { recorded: { status: "finished", outcome, delivered: true } },
  "finishing, to notify": { recorded: { status: "finished", outcome, delivered: false } },
  "finished, delivered": { continue: { status: "queued", attached: true } },
  "finished, to notify": { continue: { status: "queued", attached: true } },
};

const cases = Object.entries<ChildState>(STATES).flatMap(([label, state]) =>
  Object.entries(EVENTS).map(([type, event]) => ({ label, state, type: type as ChildEventType, event })),
);

describe("a child's states", () => {
  it.each(cases.filter((c) => LEGAL[c.label]?.[c.type] !== undefined))(
    "$label: $type is legal",
    ({ label, state, type, event }) => {
      expect(nextState(state, event)).toEqual(LEGAL[label]?.[type]);
    },
  );

  it.each(cases.filter((c) => LEGAL[c.label]?.[c.type] === undefined))(
    "$label: $type is refused",
    ({ state, event }) => {
      expect(nextState(state, event)).toBeUndefined();
    },
  );

  it("a continuation says whether a caller waits for it", () => {
    expect(nextState(STATES.idle, { type: "continue", attached: false })).toEqual({
      status: "queued",
      attached: false,
    });
  });

  it("is active from the moment it is asked to work until its outcome is recorded", () => {
    const active = Object.values(STATES)
      .filter(isActive)
      .map((state) => state.status);
    expect(new Set(active)).toEqual(new Set<ChildStatus>(["queued", "running", "finishing"]));
  });
});
