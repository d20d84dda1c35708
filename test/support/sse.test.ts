import { describe, expect, it } from "vitest";
import { encodeSse, parseSse } from "./sse.ts";

describe("SSE encoding", () => {
  it("round-trips named and unnamed events, including multi-line data", () => {
    const events = [
      { event: "ping", data: '{"type":"ping"}' },
      { data: "line one\nline two" },
      { data: "[DONE]" },
    ];
    const wire = events.map(encodeSse).join("");
    expect(wire).toBe(
      'event: ping\ndata: {"type":"ping"}\n\ndata: line one\ndata: line two\n\ndata: [DONE]\n\n',
    );
    expect(parseSse(wire)).toEqual(events);
  });

  it("parses CRLF line endings, comments and blocks without data", () => {
    expect(parseSse(": keep-alive\r\n\r\nevent: x\r\ndata:no-space\r\n\r\nevent: empty\r\n\r\n")).toEqual([
      { event: "x", data: "no-space" },
    ]);
  });
});
