import { describe, expect, test } from "vitest";
import { takesImages } from "../../src/model/capabilities.ts";
import {
  anthropicImageTokens,
  imageTokens,
  openaiImageTokens,
  UNKNOWN_IMAGE_TOKENS,
} from "../../src/model/image-tokens.ts";
import { imageTooLarge, MAX_IMAGE_BYTES, sniffImage } from "../../src/model/images.ts";
import { gifImage, jpegImage, pngImage, webpImage } from "../support/images.ts";

describe("sniffImage", () => {
  test("knows each format by its first bytes and reads its size from the header", () => {
    expect(sniffImage(pngImage(800, 600))).toEqual({
      format: "PNG",
      mediaType: "image/png",
      width: 800,
      height: 600,
    });
    expect(sniffImage(jpegImage(1024, 768))).toMatchObject({
      mediaType: "image/jpeg",
      width: 1024,
      height: 768,
    });
    expect(sniffImage(gifImage(32, 17))).toMatchObject({ mediaType: "image/gif", width: 32, height: 17 });
    expect(sniffImage(webpImage(300, 5000))).toMatchObject({
      mediaType: "image/webp",
      width: 300,
      height: 5000,
    });
  });

  test("reads lossy and extended WebP headers too", () => {
    const riff = (chunk: number[]) =>
      Buffer.from([...Buffer.from("RIFF"), 0, 0, 0, 0, ...Buffer.from("WEBP"), ...chunk]);
    // VP8: frame tag (3), start code 9d 01 2a, then 14-bit width and height.
    const lossy = riff([
      ...Buffer.from("VP8 "),
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0x9d,
      0x01,
      0x2a,
      0x40,
      0x01,
      0xf0,
      0x00,
    ]);
    expect(sniffImage(lossy)).toMatchObject({ width: 320, height: 240 });
    // VP8X: flags and reserved (4), then canvas width-1 and height-1 in 24 bits.
    const extended = riff([...Buffer.from("VP8X"), 10, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0x07, 0, 0x37, 0x04, 0]);
    expect(sniffImage(extended)).toMatchObject({ width: 1920, height: 1080 });
  });

  test("is undefined for text, other binaries and an image named by its extension only", () => {
    expect(sniffImage(Buffer.from("just text"))).toBeUndefined();
    expect(sniffImage(Buffer.from([0x42, 0x4d, 0, 0, 0, 0]))).toBeUndefined(); // BMP
    expect(sniffImage(new Uint8Array())).toBeUndefined();
  });
});

describe("imageTooLarge", () => {
  test("refuses an image over the byte limit with its size and how to make a smaller copy", () => {
    const message = imageTooLarge(
      { format: "PNG", mediaType: "image/png", width: 2600, height: 2600 },
      20 * 1024 * 1024,
      "shot.png",
    );
    expect(message).toContain("shot.png is a PNG image of 20.0 MB (2600×2600 px)");
    expect(message).toContain(`more than the ${(MAX_IMAGE_BYTES / 1_048_576).toFixed(1)} MB`);
    expect(message).toContain("magick in.png -resize");
  });

  test("refuses one wider or taller than 8000 px, and lets a normal one through", () => {
    expect(
      imageTooLarge({ format: "GIF", mediaType: "image/gif", width: 9000, height: 10 }, 100, "a.gif"),
    ).toMatch(/wider or taller than the 8000 px/);
    expect(
      imageTooLarge({ format: "GIF", mediaType: "image/gif", width: 800, height: 600 }, 100_000, "a.gif"),
    ).toBe(undefined);
  });
});

describe("image tokens", () => {
  test("Anthropic: width × height / 750 after shrinking to 1568 px and 1.15 megapixels", () => {
    expect(anthropicImageTokens(200, 200)).toBe(54);
    expect(anthropicImageTokens(1000, 1000)).toBe(1334);
    // A 4000×3000 photo is shrunk to 1.15 MP before it is counted.
    expect(anthropicImageTokens(4000, 3000)).toBe(1534);
  });

  test("OpenAI: 85 + 170 per 512-px tile after fitting 2048 px and a 768-px short side", () => {
    expect(openaiImageTokens(512, 512)).toBe(255);
    // 2048×4096 → 1024×2048 → 768×1536: 2×3 tiles.
    expect(openaiImageTokens(2048, 4096)).toBe(1105);
  });

  test("per provider of the model id; the size unknown, a full image's worth", () => {
    expect(imageTokens("anthropic:claude-sonnet-4-5", 1000, 1000)).toBe(1334);
    expect(imageTokens("openai:gpt-5", 512, 512)).toBe(255);
    expect(imageTokens("ollama:llava", 1000, 1000)).toBe(1334);
    expect(imageTokens("openai:gpt-5")).toBe(UNKNOWN_IMAGE_TOKENS);
  });
});

describe("takesImages", () => {
  test("Claude and OpenAI's current models read images; the listed exceptions do not", () => {
    expect(takesImages("anthropic:claude-sonnet-5-5")).toBe(true);
    expect(takesImages("openai:gpt-5.5")).toBe(true);
    expect(takesImages("openai:o3-mini")).toBe(false);
    expect(takesImages("openai:gpt-3.5-turbo-0125")).toBe(false);
    expect(takesImages("openai:gpt-4")).toBe(false);
    expect(takesImages("openai:gpt-4o")).toBe(true);
    expect(takesImages("openai:o3-mini-2025-01-31")).toBe(false);
  });

  test("local and compatible servers: vision models by name, others text only, settings first", () => {
    expect(takesImages("ollama:qwen3")).toBe(false);
    expect(takesImages("ollama:llava:13b")).toBe(true);
    expect(takesImages("ollama:qwen2.5vl:7b")).toBe(true);
    expect(takesImages("openai-compatible:vllm/my-model")).toBe(false);
    expect(takesImages("openai-compatible:vllm/my-model", { "openai-compatible:vllm/my-model": true })).toBe(
      true,
    );
    expect(takesImages("anthropic:claude-sonnet-5-5", { "anthropic:claude-sonnet-5-5": false })).toBe(false);
  });
});
