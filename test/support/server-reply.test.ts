import { describe, expect, it } from "vitest";
import { replyStopReason, replyUsage, splitIntoChunks, toolCallArguments } from "./server-reply.ts";

describe("server reply helpers", () => {
  it("splits into at most three non-empty chunks without breaking a code point", () => {
    expect(splitIntoChunks("")).toEqual([]);
    expect(splitIntoChunks("ab")).toEqual(["a", "b"]);
    expect(splitIntoChunks("abcdefg")).toEqual(["abc", "def", "g"]);
    const emoji = splitIntoChunks("😀😃😄😁");
    expect(emoji.join("")).toBe("😀😃😄😁");
    expect(emoji.every((chunk) => !/[\uD800-\uDBFF]$/.test(chunk))).toBe(true);
  });

  it("defaults usage like the scripted model and keeps given numbers", () => {
    expect(replyUsage({})).toEqual({ input: 10, output: 10, cacheRead: 0, cacheWrite: 0 });
    expect(replyUsage({ usage: { output: 3, cacheRead: 4 } })).toEqual({
      input: 10,
      output: 3,
      cacheRead: 4,
      cacheWrite: 0,
    });
  });

  it("derives the stop reason from tool calls unless one is scripted", () => {
    expect(replyStopReason({ text: "x" })).toBe("stop");
    expect(replyStopReason({ toolCalls: [{ name: "a" }] })).toBe("tool_calls");
    expect(replyStopReason({ toolCalls: [{ name: "a" }], stopReason: "length" })).toBe("length");
  });

  it("sends rawArgs verbatim and serializes args otherwise", () => {
    expect(toolCallArguments({ name: "a", rawArgs: '{"x":' })).toBe('{"x":');
    expect(toolCallArguments({ name: "a", args: { x: 1 } })).toBe('{"x":1}');
    expect(toolCallArguments({ name: "a" })).toBe("{}");
  });
});
