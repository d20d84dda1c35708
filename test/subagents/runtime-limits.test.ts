import { expect, test } from "vitest";
import {
  DEFAULT_SUBAGENT_LIMITS,
  resolveLimits,
  SubagentLimitsConfigError,
} from "../../src/subagents/tree/limits.ts";

test("the defaults: children cannot spawn, 64 run at once (model calls have their own adaptive limit), 64 per root, 30 turns, 10 minutes, no budgets", () => {
  expect(resolveLimits()).toEqual({
    maxDepth: 1,
    maxConcurrent: 64,
    maxDescendants: 64,
    maxTurns: 30,
    timeoutMs: 600_000,
    stallTimeoutMs: 600_000,
    heartbeatMs: 2_000,
    cancelPollMs: 250,
    orphanTimeoutMs: 30_000,
  });
  expect(resolveLimits({})).toEqual(DEFAULT_SUBAGENT_LIMITS);
});

test("given values replace the defaults one by one", () => {
  expect(resolveLimits({ maxDepth: 3, timeoutMs: 1000 })).toMatchObject({
    maxDepth: 3,
    timeoutMs: 1000,
    maxConcurrent: 64,
  });
});

test("bad values are refused, naming each key", () => {
  expect(() => resolveLimits({ maxConcurrent: 0, maxTurns: 1.5 })).toThrow(SubagentLimitsConfigError);
  expect(() => resolveLimits({ maxConcurrent: 0, maxTurns: 1.5 })).toThrow(
    /^Invalid subagent limits: maxConcurrent: .*; maxTurns: /,
  );
  expect(() => resolveLimits({ maxDepth: -1 })).toThrow(/maxDepth/);
  expect(() => resolveLimits({ bogus: 1 } as never)).toThrow(/bogus/);
});

test("the orphan timeout must leave room for several heartbeats", () => {
  expect(() => resolveLimits({ heartbeatMs: 1000, orphanTimeoutMs: 2000 })).toThrow(
    "Invalid subagent limits: orphanTimeoutMs (2000) must be at least 3 × heartbeatMs (1000).",
  );
  expect(resolveLimits({ heartbeatMs: 100, orphanTimeoutMs: 300 })).toMatchObject({ orphanTimeoutMs: 300 });
});
