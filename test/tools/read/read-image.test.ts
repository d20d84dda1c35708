import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { readTool } from "../../../src/tools/read/read.ts";
import { gifImage, jpegImage, pngImage, webpImage } from "../../support/images.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tool-context.ts";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});

const read = (path: string) => runTool(readTool, { path }, makeContext(box.workspace).ctx);
const file = (name: string, content: Buffer) => writeFile(join(box.workspace, name), content);

describe("read of an image", () => {
  it("returns the image itself with a line naming it, after asking read permission", async () => {
    const png = pngImage(64, 32);
    await file("logo.png", png);
    const { ctx, asks } = makeContext(box.workspace);
    const result = await runTool(readTool, { path: "logo.png" }, ctx);
    expect(asks).toEqual([{ permission: "read", patterns: ["logo.png"], title: "read logo.png" }]);
    expect(result.content).toBe("logo.png: PNG image, 64×32 px, 1 KB.");
    expect(result.images).toEqual([
      { type: "image", mediaType: "image/png", data: png.toString("base64"), width: 64, height: 32 },
    ]);
    expect(result.details).toEqual({
      path: "logo.png",
      image: { format: "PNG", bytes: png.length, width: 64, height: 32 },
    });
  });

  it("knows JPEG, GIF and WebP by their bytes, whatever the file is called", async () => {
    await file("photo", jpegImage(1200, 900));
    await file("anim.gif", gifImage(10, 10));
    await file("pic.webp.bak", webpImage(300, 200));
    expect((await read("photo")).images?.[0]).toMatchObject({
      mediaType: "image/jpeg",
      width: 1200,
      height: 900,
    });
    expect((await read("anim.gif")).images?.[0]?.mediaType).toBe("image/gif");
    expect((await read("pic.webp.bak")).images?.[0]).toMatchObject({ mediaType: "image/webp", width: 300 });
  });

  it("refuses a 20 MB image with its size, its pixels and how to make a smaller copy", async () => {
    // 2600×2600 random pixels: a real, incompressible PNG of about 20 MB.
    await file("huge.png", pngImage(2600, 2600, { noise: true }));
    await expect(read("huge.png")).rejects.toThrow(
      /^huge\.png is a PNG image of 19\.\d MB \(2600×2600 px\), more than the 3\.8 MB an image sent to a model may have; agentry does not shrink images\. Make a smaller copy and use that, e\.g\. `magick in\.png -resize 1568x1568/,
    );
  });

  it("refuses one too wide to send, even when it is small in bytes", async () => {
    await file("strip.gif", gifImage(12_000, 10));
    await expect(read("strip.gif")).rejects.toThrow(/wider or taller than the 8000 px/);
  });

  it("names a format models do not take, and how to convert it", async () => {
    await file("icon.bmp", Buffer.from([0x42, 0x4d, 0x3a, 0, 0, 0, 0, 0]));
    await expect(read("icon.bmp")).rejects.toThrow(
      "icon.bmp is a BMP image (8 bytes); read shows PNG, JPEG, GIF and WebP images only",
    );
  });
});
