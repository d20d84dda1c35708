import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { type AskAnswer, type AskRequest, createAskQueue } from "../../src/permissions/ask-queue.ts";

const request = (title: string): AskRequest => ({
  permission: "bash",
  patterns: [title],
  title,
  agentPath: ["main"],
  always: [title],
  alwaysRules: [title],
});

describe("the ask queue", () => {
  it("an ask whose agent was cancelled before asking is never shown", async () => {
    const shown: string[] = [];
    const ask = createAskQueue(async (req) => {
      shown.push(req.title ?? "");
      return "once";
    }, 10_000);
    const cancelled = new AbortController();
    cancelled.abort();

    expect(await ask({ request: request("ls"), stillNeeded: () => true, signal: cancelled.signal })).toBe(
      "aborted",
    );
    expect(await ask({ request: request("pwd"), stillNeeded: () => true })).toBe("once");
    expect(shown).toEqual(["pwd"]);
  });

  it("an ask cancelled while it waited its turn is not shown when the turn comes", async () => {
    const shown: string[] = [];
    let answerFirst: (answer: AskAnswer) => void = () => {};
    const ask = createAskQueue((req) => {
      shown.push(req.title ?? "");
      return new Promise<AskAnswer>((done) => {
        answerFirst = done;
      });
    }, 10_000);
    const first = ask({ request: request("first"), stillNeeded: () => true });
    const cancel = new AbortController();
    const second = ask({ request: request("second"), stillNeeded: () => true, signal: cancel.signal });
    cancel.abort();

    expect(await second).toBe("aborted");
    answerFirst("once");
    expect(await first).toBe("once");
    const third = ask({ request: request("third"), stillNeeded: () => true });
    // The cancelled ask's turn passes without a prompt: the next one shown is the third.
    while (shown.length < 2) await new Promise((done) => setTimeout(done, 5));
    answerFirst("always");
    expect(await third).toBe("always");
    expect(shown).toEqual(["first", "third"]);
  });

  it.each([
    ["nothing", undefined],
    ["null", null],
    ["a number", 1],
    ["an unknown word", "maybe"],
    ["an empty object", {}],
    ["a rejection without a message", { type: "reject" }],
    ["a rejection whose message is not text", { type: "reject", message: 42 }],
    ["a message without a rejection", { message: "go ahead" }],
    ["another kind of answer with a message", { type: "approve", message: "go ahead" }],
  ])("an answer that is %s is an error, not a decision", async (_name, answer) => {
    const ask = createAskQueue(async () => answer as AskAnswer, 10_000);
    const result = await ask({ request: request("make"), stillNeeded: () => true });
    expect(result).toEqual({ error: new Error(`invalid answer ${JSON.stringify(answer)}`) });
  });

  it("a rejection with a message is an answer", async () => {
    const answer = { type: "reject", message: "use make check" } as const;
    const ask = createAskQueue(async () => answer, 10_000);
    expect(await ask({ request: request("make"), stillNeeded: () => true })).toEqual(answer);
  });

  // A run asks hundreds of times: an answered prompt must leave neither its timeout (which would keep
  // the process alive for minutes) nor a listener on the agent's signal behind.
  it("an answered prompt leaves no timer and no listener on the agent's signal", async () => {
    vi.useFakeTimers();
    try {
      let answer: (answer: AskAnswer) => void = () => {};
      const ask = createAskQueue(
        () =>
          new Promise<AskAnswer>((done) => {
            answer = done;
          }),
        300_000,
      );
      const agent = new AbortController();
      const asked = ask({ request: request("make"), stillNeeded: () => true, signal: agent.signal });
      await vi.advanceTimersByTimeAsync(0);
      expect([vi.getTimerCount(), getEventListeners(agent.signal, "abort").length]).toEqual([1, 1]);
      answer("once");
      expect(await asked).toBe("once");
      expect([vi.getTimerCount(), getEventListeners(agent.signal, "abort").length]).toEqual([0, 0]);
    } finally {
      vi.useRealTimers();
    }
  });
});
