import { describe, expect, it } from "vitest";
import { measureContext } from "../../../src/agent/compaction/context-size.ts";
import { messageChars } from "../../../src/agent/limits/token-estimate.ts";
import type { Message } from "../../../src/model/messages.ts";
import { assistant, calling, results, user } from "./messages.ts";

const parts = (messages: Message[], measuredFrom = 0) => ({
  system: "s".repeat(400),
  tools: [],
  messages,
  measuredFrom,
});

describe("measureContext", () => {
  it("estimates from characters (four a token) before any call reported usage", () => {
    const messages = [user("x".repeat(4_000))];
    const size = measureContext(parts(messages));
    expect(size.measured).toBe(false);
    const chars = 400 + JSON.stringify([]).length + messageChars(messages[0] as Message);
    expect(size.tokens).toBe(Math.ceil(chars / 4));
  });

  it("takes the provider's report of the last call, its output, and the messages added since", () => {
    const first = user("x".repeat(4_000));
    // The provider counted 2,000 prompt tokens (half a token a character: a dense tokenizer) …
    const reply = calling([{ id: "a" }], { input: 500, cacheRead: 1_200, cacheWrite: 300, output: 50 });
    const added = results({ id: "a", content: "y".repeat(1_000) });
    const size = measureContext(parts([first, reply, added]));
    expect(size.measured).toBe(true);
    const before = 400 + 2 + messageChars(first);
    expect(size.tokensPerChar).toBeCloseTo(2_000 / before);
    // … so the 1,000 new characters count at that rate too, not at four a character.
    expect(size.tokens).toBe(2_000 + 50 + Math.ceil(messageChars(added) * (2_000 / before)));
  });

  it("ignores reports from before the last compaction (they measured the longer history)", () => {
    const summary = user("summary ".repeat(10_000));
    const keptReply = assistant("kept", { input: 90_000, output: 10 });
    const messages = [summary, keptReply, user("next")];
    const stale = measureContext(parts(messages, 0));
    expect(stale.tokens).toBeGreaterThan(90_000);
    const fresh = measureContext(parts(messages, 2));
    expect(fresh.measured).toBe(false);
    expect(fresh.tokens).toBeLessThan(25_000);
  });

  it("does not use a report that cannot describe these messages (a fake model's 10 tokens)", () => {
    const messages = [user("x".repeat(40_000)), assistant("ok", { input: 10, output: 10 }), user("more")];
    const size = measureContext(parts(messages));
    expect(size.measured).toBe(false);
    expect(size.tokens).toBeGreaterThan(10_000);
  });

  it("skips a failed call's empty report for the call before it", () => {
    const failed = { ...assistant(""), stopReason: "error" as const };
    const messages = [
      user("x".repeat(4_000)),
      assistant("ok", { input: 1_100, output: 5 }),
      user("go"),
      failed,
    ];
    expect(measureContext(parts(messages)).measured).toBe(true);
  });
});
