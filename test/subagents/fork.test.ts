import { describe, expect, it } from "vitest";
import type { AssistantMessage, Message } from "../../src/model/messages.ts";
import { emptyUsage, userText } from "../../src/model/messages.ts";
import { forkHistory, parseForkMode } from "../../src/subagents/child/fork.ts";

function assistant(
  content: AssistantMessage["content"],
  stopReason: AssistantMessage["stopReason"] = "stop",
) {
  return { role: "assistant", content, stopReason, usage: emptyUsage(), model: "scripted:model" } as const;
}
const call = (id: string) =>
  ({ type: "tool_call", id, name: "read", args: { path: "a" }, rawArgs: "{}" }) as const;
const result = (id: string): Message => ({
  role: "tool_result",
  content: [
    { type: "tool_result", toolCallId: id, toolName: "read", content: "secret file text", isError: false },
  ],
});

const history: Message[] = [
  userText("turn 1"),
  assistant(
    [{ type: "reasoning", text: "thinking" }, { type: "text", text: "let me look" }, call("c1")],
    "tool_calls",
  ),
  result("c1"),
  assistant([
    { type: "reasoning", text: "more" },
    { type: "text", text: "answer 1" },
  ]),
  userText("turn 2"),
  assistant([{ type: "text", text: "answer 2" }]),
  userText("turn 3"),
  assistant([call("c2")], "tool_calls"),
  result("c2"),
  assistant([{ type: "text", text: "answer 3" }]),
];

const texts = (messages: Message[]) =>
  messages.map((m) => `${m.role}: ${m.content.map((p) => ("text" in p ? p.text : p.type)).join("|")}`);

describe("forkHistory", () => {
  it("none keeps nothing", () => {
    expect(forkHistory(history, "none")).toEqual([]);
  });

  it("all keeps user messages and final answers, dropping reasoning, tool calls and results", () => {
    expect(texts(forkHistory(history, "all"))).toEqual([
      "user: turn 1",
      "assistant: answer 1",
      "user: turn 2",
      "assistant: answer 2",
      "user: turn 3",
      "assistant: answer 3",
    ]);
    expect(JSON.stringify(forkHistory(history, "all"))).not.toMatch(/secret file text|thinking|tool_call/);
  });

  it("N keeps the last N turns", () => {
    expect(texts(forkHistory(history, 2))).toEqual([
      "user: turn 2",
      "assistant: answer 2",
      "user: turn 3",
      "assistant: answer 3",
    ]);
  });

  it("does not share objects with the caller's history", () => {
    const forked = forkHistory(history, "all");
    (forked[0]?.content[0] as { text: string }).text = "changed";
    expect(texts(history)[0]).toBe("user: turn 1");
  });

  it("parses fork values and rejects bad ones clearly", () => {
    expect(parseForkMode("all")).toBe("all");
    expect(parseForkMode("3")).toBe(3);
    expect(parseForkMode(0)).toBe("none");
    expect(parseForkMode(undefined)).toBeUndefined();
    expect(() => parseForkMode("some")).toThrow(/fork must be "none", "all" or a whole number/);
    expect(() => parseForkMode(-1)).toThrow(/fork must be/);
  });
});
