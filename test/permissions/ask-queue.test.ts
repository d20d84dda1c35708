import { describe, expect, it } from "vitest";
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
});
