import { describe, expect, it } from "vitest";
import { PLANNED_SUMMARY_TOKENS, planCompaction } from "../../../src/agent/compaction/compaction-plan.ts";
import type { ContextSize } from "../../../src/agent/compaction/context-size.ts";
import type { Message } from "../../../src/model/messages.ts";
import { assistant, calling, results, toolTurns, user } from "./messages.ts";

/** Four characters a token, no system prompt: a message of 400 characters is about 100 tokens. */
const size: ContextSize = { tokens: 0, measured: true, fixedTokens: 0, tokensPerChar: 0.25 };
const roomy = { size, target: 1_000_000 };

function kept(messages: readonly Message[], cut: number): string[] {
  return messages.slice(cut).map((m) => m.role);
}

describe("planCompaction: what is kept", () => {
  it("keeps the last keepTurns assistant turns with their results and replaces everything before", () => {
    const messages = toolTurns(6);
    const plan = planCompaction(messages, { ...roomy, keepTurns: 2 });
    expect(plan).toMatchObject({ kind: "compact", keptTurns: 2 });
    if (plan.kind !== "compact") return;
    // The kept part starts at the second-last call and ends with the last results.
    expect(plan.cut).toBe(messages.length - 4);
    expect(kept(messages, plan.cut)).toEqual(["assistant", "tool_result", "assistant", "tool_result"]);
  });

  it("never separates a tool call from its results: every cut is at an assistant message", () => {
    for (let turns = 2; turns <= 8; turns++) {
      const messages = toolTurns(turns);
      for (let keepTurns = 1; keepTurns <= turns; keepTurns++) {
        const plan = planCompaction(messages, { ...roomy, keepTurns });
        if (plan.kind !== "compact") continue;
        expect(messages[plan.cut]?.role).toBe("assistant");
        // Every result that stays answers a call that stays.
        const keptCalls = new Set(
          messages
            .slice(plan.cut)
            .flatMap((m) => (m.role === "assistant" ? m.content : []))
            .flatMap((p) => (p.type === "tool_call" ? [p.id] : [])),
        );
        for (const message of messages.slice(plan.cut)) {
          if (message.role !== "tool_result") continue;
          for (const part of message.content) expect(keptCalls).toContain(part.toolCallId);
        }
      }
    }
  });

  it("keeps the messages after the last turn (a new prompt, a notification) with it", () => {
    const messages = [...toolTurns(4), assistant("done"), user("now do more"), user("<task-notification>")];
    const plan = planCompaction(messages, { ...roomy, keepTurns: 1 });
    expect(plan.kind === "compact" && kept(messages, plan.cut)).toEqual(["assistant", "user", "user"]);
  });

  it("keeps fewer turns when that is what brings the prompt to the target", () => {
    const messages = toolTurns(6, 4_000); // about 1,000 tokens per turn
    const target = PLANNED_SUMMARY_TOKENS + 1_500; // room for one kept turn, not two
    const plan = planCompaction(messages, { size, target, keepTurns: 3 });
    expect(plan).toMatchObject({ kind: "compact", keptTurns: 1 });
    expect(plan.kind === "compact" && plan.tokensAfter).toBeLessThanOrEqual(target);
  });

  it("counts the system prompt and tools in the size after", () => {
    const messages = toolTurns(3);
    const without = planCompaction(messages, { size, target: 1e6, keepTurns: 1 });
    const withFixed = planCompaction(messages, {
      size: { ...size, fixedTokens: 700 },
      target: 1e6,
      keepTurns: 1,
    });
    if (without.kind !== "compact" || withFixed.kind !== "compact") throw new Error("expected plans");
    expect(withFixed.tokensAfter - without.tokensAfter).toBe(700);
    // The kept turn (about 400 characters of output, at 4 a token) and the planned summary.
    expect(without.tokensAfter - PLANNED_SUMMARY_TOKENS).toBeGreaterThan(100);
    expect(without.tokensAfter - PLANNED_SUMMARY_TOKENS).toBeLessThan(130);
  });
});

describe("planCompaction: when it cannot", () => {
  it("says so when nothing is older than the kept turn", () => {
    expect(planCompaction([user("big prompt")], { ...roomy, keepTurns: 2 })).toMatchObject({
      kind: "cannot_shrink",
    });
    // One turn: replacing only the prompt before it is not a compaction.
    expect(planCompaction(toolTurns(1), { ...roomy, keepTurns: 1 }).kind).toBe("cannot_shrink");
  });

  it("says so when the latest turn alone stays over the limit, instead of compacting again and again", () => {
    const messages = [
      ...toolTurns(3),
      calling([{ id: "huge" }]),
      results({ id: "huge", content: "x".repeat(80_000) }),
    ];
    const plan = planCompaction(messages, { size, target: 5_000, limit: 10_000, keepTurns: 2 });
    expect(plan.kind).toBe("cannot_shrink");
    expect(plan.kind === "cannot_shrink" && plan.reason).toMatch(/latest turn alone is about 20\d{3} tokens/);
  });

  it("still compacts over the target but under the limit, keeping the latest turn", () => {
    const messages = [
      ...toolTurns(3),
      calling([{ id: "big" }]),
      results({ id: "big", content: "x".repeat(20_000) }),
    ];
    const plan = planCompaction(messages, { size, target: 3_000, limit: 10_000, keepTurns: 2 });
    expect(plan).toMatchObject({ kind: "compact", keptTurns: 1, cut: messages.length - 2 });
  });

  it("compacts whatever it gives without a limit (a compaction the user asked for)", () => {
    const messages = [
      ...toolTurns(3),
      calling([{ id: "h" }]),
      results({ id: "h", content: "x".repeat(80_000) }),
    ];
    expect(planCompaction(messages, { size, target: 10, keepTurns: 1 }).kind).toBe("compact");
  });
});
