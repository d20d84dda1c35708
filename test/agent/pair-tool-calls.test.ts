import { expect, it } from "vitest";
import { pairToolCalls } from "../../src/agent/session/repair.ts";
import type { AssistantMessage, Message, ToolResultMessage } from "../../src/model/messages.ts";
import { userText } from "../../src/model/messages.ts";

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };
const calling = (...ids: string[]): AssistantMessage => ({
  role: "assistant",
  content: ids.map((id) => ({ type: "tool_call", id, name: "read", args: { path: id }, rawArgs: "{}" })),
  stopReason: "tool_calls",
  usage,
  model: "m",
});
const results = (...ids: string[]): ToolResultMessage => ({
  role: "tool_result",
  content: ids.map((id) => ({
    type: "tool_result",
    toolCallId: id,
    toolName: "read",
    content: `out ${id}`,
    isError: false,
  })),
});
const shape = (messages: readonly Message[]) =>
  messages.map((m) =>
    m.role === "tool_result"
      ? `results ${m.content.map((r) => `${r.toolCallId}:${r.isError ? "err" : "ok"}`).join(",")}`
      : m.role === "assistant"
        ? "assistant"
        : `user ${m.content.map((p) => (p.type === "text" ? p.text.split("\n")[0] : "")).join("")}`,
  );

it("returns a well-paired history unchanged (the same array)", () => {
  const messages = [userText("go"), calling("a", "b"), results("a", "b"), userText("next")];
  expect(pairToolCalls(messages)).toBe(messages);
});

it("closes calls left without results in the middle of the history, before the next prompt", () => {
  const paired = pairToolCalls([userText("go"), calling("a", "b"), userText("resumed")]);
  expect(shape(paired)).toEqual(["user go", "assistant", "results a:err,b:err", "user resumed"]);
  const closed = paired[2];
  expect(closed?.role === "tool_result" && closed.content[0]?.content).toMatch(/^interrupted/);
});

it("fills in the missing results of a partly answered message, in call order", () => {
  const paired = pairToolCalls([userText("go"), calling("a", "b", "c"), results("c", "a")]);
  expect(shape(paired)).toEqual(["user go", "assistant", "results a:ok,b:err,c:ok"]);
});

it("keeps results whose call is gone as a user note instead of dropping them", () => {
  const paired = pairToolCalls([userText("go"), results("lost"), userText("again")]);
  expect(shape(paired)).toEqual([
    "user go",
    "user (Tool results whose call is missing from the transcript, kept as text:)",
    "user again",
  ]);
  expect(JSON.stringify(paired[1])).toContain("out lost");
});

it("keeps a result for an unknown call and a second result for one call as a note after the pair", () => {
  const extra = results("a", "zzz", "a");
  const paired = pairToolCalls([userText("go"), calling("a"), extra]);
  expect(shape(paired)).toEqual([
    "user go",
    "assistant",
    "results a:ok",
    "user (Tool results whose call is missing from the transcript, kept as text:)",
  ]);
  expect(JSON.stringify(paired[3])).toContain("out zzz");
});
