import { describe, expect, it } from "vitest";
import { mcpResultText } from "../../src/mcp/mcp-result.ts";

const png = Buffer.alloc(2048).toString("base64");

describe("mcpResultText", () => {
  it("joins text blocks with newlines", () => {
    const content = [
      { type: "text" as const, text: "first" },
      { type: "text" as const, text: "second\nthird" },
    ];
    expect(mcpResultText({ content })).toBe("first\nsecond\nthird");
  });

  it("turns images and audio into a placeholder with type and size", () => {
    const content = [
      { type: "image" as const, data: png, mimeType: "image/png" },
      { type: "audio" as const, data: Buffer.alloc(10).toString("base64"), mimeType: "audio/wav" },
    ];
    expect(mcpResultText({ content })).toBe(
      "[image image/png, 2.0 KB; not shown: tool results are text only]\n[audio audio/wav, 10 bytes; not shown: tool results are text only]",
    );
  });

  it("gives embedded resources' text, else their uri", () => {
    const content = [
      { type: "resource" as const, resource: { uri: "file:///a.txt", text: "contents of a" } },
      {
        type: "resource" as const,
        resource: { uri: "file:///b.bin", mimeType: "application/zip", blob: png },
      },
    ];
    expect(mcpResultText({ content })).toBe(
      "contents of a\n[resource file:///b.bin application/zip, 2.0 KB]",
    );
  });

  it("names resource links", () => {
    const content = [{ type: "resource_link" as const, uri: "file:///c.md", name: "c.md" }];
    expect(mcpResultText({ content })).toBe("[resource link file:///c.md (c.md)]");
  });

  it("sends structuredContent as JSON only when no block carries text", () => {
    expect(mcpResultText({ content: [], structuredContent: { sum: 3 } })).toBe('{"sum":3}');
    const image = { type: "image" as const, data: png, mimeType: "image/png" };
    expect(mcpResultText({ content: [image], structuredContent: { n: 1 } })).toContain('\n{"n":1}');
    const text = { type: "text" as const, text: '{"sum":3}' };
    expect(mcpResultText({ content: [text], structuredContent: { sum: 3 } })).toBe('{"sum":3}');
  });

  it("says when there is nothing", () => {
    expect(mcpResultText({ content: [] })).toBe("(the tool returned no content)");
  });
});
