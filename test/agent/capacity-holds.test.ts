import { expect, onTestFinished, test, vi } from "vitest";
import { capacityHolds } from "../../src/agent/limits/capacity-holds.ts";
import { RunLimitExceeded, watchLimits } from "../../src/agent/limits/run-limits.ts";
import type { AgentEvent } from "../../src/contracts/events.ts";

const wait = (agentPath: string[]): AgentEvent => ({
  type: "capacity_wait",
  reason: "limit",
  limit: 1,
  inFlight: 1,
  waiting: 1,
  agentPath,
});
/** The limits' timers and clock, faked: the test moves time itself, so a busy machine cannot reorder them. */
function fakeClock(): (ms: number) => Promise<void> {
  vi.useFakeTimers();
  onTestFinished(() => {
    vi.useRealTimers();
  });
  return async (ms) => {
    await vi.advanceTimersByTimeAsync(ms);
  };
}

const granted = (agentPath: string[]): AgentEvent => ({
  type: "capacity_granted",
  waitedMs: 1,
  limit: 1,
  inFlight: 1,
  agentPath,
});

test("a held run neither stalls nor spends its wall-clock budget; once released, both run again", async () => {
  const sleep = fakeClock();
  const limits = watchLimits(new AbortController().signal, { stallTimeoutMs: 80, maxDurationMs: 150 });
  const release = limits.hold();
  await sleep(300);
  expect(limits.signal.aborted).toBe(false);
  release();
  await sleep(110);
  expect(limits.signal.reason).toBeInstanceOf(RunLimitExceeded);
  expect((limits.signal.reason as RunLimitExceeded).limit).toBe("stall");
  limits.dispose();
});

test("the wall-clock budget resumes with what was left of it when the hold began", async () => {
  const sleep = fakeClock();
  const limits = watchLimits(new AbortController().signal, { maxDurationMs: 300 });
  await sleep(100);
  const release = limits.hold();
  await sleep(400);
  release();
  // ~200 ms of the budget were left when the hold began.
  await sleep(60);
  expect(limits.signal.aborted).toBe(false);
  await sleep(300);
  expect(limits.signal.aborted).toBe(true);
  expect(String((limits.signal.reason as Error).message)).toContain("wall-clock budget of 0.3s exceeded");
  limits.dispose();
});

test("a stall hold keeps the budget running", async () => {
  const sleep = fakeClock();
  const limits = watchLimits(new AbortController().signal, { maxDurationMs: 100, stallTimeoutMs: 50 });
  const release = limits.hold("stall");
  await sleep(200);
  expect((limits.signal.reason as RunLimitExceeded | undefined)?.limit).toBe("time");
  release();
  limits.dispose();
});

test("the run's own wait holds everything; a descendant's holds only the stall timer, until its grant or end", () => {
  const holds: string[] = [];
  const waits = capacityHolds(["main"], (scope) => {
    holds.push(`hold ${scope}`);
    return () => holds.push(`release ${scope}`);
  });
  waits.observe(wait(["main"]));
  waits.observe(wait(["main"])); // a heartbeat of the same wait
  waits.observe(granted(["main"]));
  waits.observe(wait(["main", "explore-1"]));
  waits.observe({
    type: "agent_end",
    agentPath: ["main", "explore-1"],
    outcome: {
      status: "aborted",
      reason: "cancelled",
      text: "",
      turns: 0,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      durationMs: 1,
      sessionId: "s",
    },
  });
  waits.observe(wait(["main", "explore-2"]));
  waits.dispose();
  expect(holds).toEqual([
    "hold all",
    "release all",
    "hold stall",
    "release stall",
    "hold stall",
    "release stall",
  ]);
});
