import { describe, expect, it } from "vitest";
import { mcpResultContent, mcpResultText } from "../../src/mcp/mcp-result.ts";
import { MAX_IMAGE_BYTES } from "../../src/model/images.ts";
import { pngImage } from "../support/images.ts";

const png = pngImage(20, 10).toString("base64");
const notAnImage = Buffer.alloc(2048).toString("base64");

describe("mcpResultContent", () => {
  it("joins text blocks with newlines", () => {
    const content = [
      { type: "text" as const, text: "first" },
      { type: "text" as const, text: "second\nthird" },
    ];
    expect(mcpResultText({ content })).toBe("first\nsecond\nthird");
  });

  it("passes an image through, with a line naming it where it was", () => {
    const content = [
      { type: "text" as const, text: "Here it is:" },
      { type: "image" as const, data: png, mimeType: "image/png" },
    ];
    const result = mcpResultContent({ content }, "shots");
    expect(result.text).toMatch(/^Here it is:\n\[image: PNG image, 20×10 px, 1 KB\]$/);
    expect(result.images).toEqual([
      { type: "image", mediaType: "image/png", data: png, width: 20, height: 10 },
    ]);
  });

  it("takes the format from the bytes, not from the server's mimeType", () => {
    const result = mcpResultContent({ content: [{ type: "image", data: png, mimeType: "image/jpeg" }] }, "s");
    expect(result.images[0]?.mediaType).toBe("image/png");
  });

  it("says why an image is not shown: not a format models take, or too large", () => {
    const huge = Buffer.concat([pngImage(10, 10), Buffer.alloc(MAX_IMAGE_BYTES)]).toString("base64");
    const result = mcpResultContent(
      {
        content: [
          { type: "image", data: notAnImage, mimeType: "image/bmp" },
          { type: "image", data: huge, mimeType: "image/png" },
          { type: "audio", data: Buffer.alloc(10).toString("base64"), mimeType: "audio/wav" },
        ],
      },
      "s",
    );
    expect(result.images).toEqual([]);
    expect(result.text.split("\n")).toEqual([
      "[image image/bmp, 2.0 KB: not shown, because only PNG, JPEG, GIF and WebP images can be sent to a model]",
      expect.stringMatching(
        /^\[the image is a PNG image of 3\.8 MB \(10×10 px\), more than the 3\.8 MB .*: not shown\]$/,
      ),
      "[audio audio/wav, 10 bytes: not shown, because agentry sends no audio to models]",
    ]);
  });

  it("gives embedded resources' text or image, else their uri", () => {
    const content = [
      { type: "resource" as const, resource: { uri: "file:///a.txt", text: "contents of a" } },
      {
        type: "resource" as const,
        resource: { uri: "file:///b.bin", mimeType: "application/zip", blob: notAnImage },
      },
      { type: "resource" as const, resource: { uri: "file:///c.png", mimeType: "image/png", blob: png } },
    ];
    const result = mcpResultContent({ content }, "s");
    expect(result.text).toBe(
      "contents of a\n[resource file:///b.bin application/zip, 2.0 KB]\n[image file:///c.png: PNG image, 20×10 px, 1 KB]",
    );
    expect(result.images).toHaveLength(1);
  });

  it("names resource links and how to read them", () => {
    const content = [{ type: "resource_link" as const, uri: "file:///c.md", name: "c.md" }];
    expect(mcpResultContent({ content }, "docs").text).toBe(
      '[resource link file:///c.md (c.md): read it with read_mcp_resource {"server":"docs","uri":"file:///c.md"}]',
    );
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
