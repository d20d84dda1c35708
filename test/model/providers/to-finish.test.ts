import { describe, expect, test } from "vitest";
import { toFinishOutcome, toUsage } from "../../../src/model/providers/to-finish.ts";

describe("toUsage", () => {
  test("input counts uncached tokens; cache reads and writes are separate", () => {
    expect(
      toUsage({
        inputTokens: { total: 120, noCache: 100, cacheRead: 15, cacheWrite: 5 },
        outputTokens: { total: 30, text: 20, reasoning: 10 },
      }),
    ).toEqual({ input: 100, output: 30, cacheRead: 15, cacheWrite: 5 });
  });

  test("derives uncached input from the total when noCache is missing, and zeros unknowns", () => {
    expect(
      toUsage({
        inputTokens: { total: 50, noCache: undefined, cacheRead: 20, cacheWrite: undefined },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      }),
    ).toEqual({ input: 30, output: 0, cacheRead: 20, cacheWrite: 0 });
    expect(toUsage(undefined)).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
  });
});

describe("toFinishOutcome", () => {
  const finish = (unified: Parameters<typeof toFinishOutcome>[0]["unified"]) => ({ unified, raw: undefined });

  test("stop and tool-calls map by whether the message holds tool calls", () => {
    expect(toFinishOutcome(finish("stop"), false)).toEqual({ ok: true, stopReason: "stop" });
    expect(toFinishOutcome(finish("tool-calls"), true)).toEqual({ ok: true, stopReason: "tool_calls" });
    // Some OpenAI-compatible servers say "stop" after tool calls.
    expect(toFinishOutcome(finish("stop"), true)).toEqual({ ok: true, stopReason: "tool_calls" });
    expect(toFinishOutcome(finish("other"), false)).toEqual({ ok: true, stopReason: "stop" });
  });

  test("length stays length even with tool calls", () => {
    expect(toFinishOutcome(finish("length"), true)).toEqual({ ok: true, stopReason: "length" });
  });

  test("an interrupted stream is a retryable error, never a success", () => {
    expect(toFinishOutcome(finish("interrupted"), false)).toMatchObject({
      ok: false,
      retryable: true,
      errorMessage: expect.stringContaining("ended before the message was complete"),
    });
  });

  test("content filter and error finishes are errors", () => {
    expect(toFinishOutcome(finish("content-filter"), false)).toMatchObject({ ok: false, retryable: false });
    expect(toFinishOutcome(finish("error"), false)).toMatchObject({ ok: false, retryable: true });
  });
});
