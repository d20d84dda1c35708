import { randomBytes } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";

/**
 * Image files made in the test, byte for byte as their formats define them, so no binary fixture is
 * committed. The PNG is a complete, decodable image; the others are well-formed headers (what agentry
 * reads of an image: its format and size) followed by a little data.
 */

/** A real PNG: RGB, `noise` fills it with random pixels (incompressible, so the file is ~3 bytes a pixel). */
export function pngImage(width: number, height: number, options: { noise?: boolean } = {}): Buffer {
  const row = 1 + width * 3;
  const raw = options.noise ? randomBytes(row * height) : Buffer.alloc(row * height, 0x7f);
  for (let y = 0; y < height; y++) raw[y * row] = 0; // filter type "none" on every row
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, not interlaced
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: options.noise ? 0 : 6 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A JPEG's start: SOI, a JFIF APP0 segment, then the frame header (SOF0) with the size. */
export function jpegImage(width: number, height: number): Buffer {
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof0 = [0xff, 0xc0, 0x00, 0x11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3];
  const components = [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return Buffer.from([0xff, 0xd8, ...app0, ...sof0, ...components, 0xff, 0xd9]);
}

/** A 1-pixel GIF89a whose logical screen says `width`×`height`. */
export function gifImage(width: number, height: number): Buffer {
  const gif = Buffer.from(
    "47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b",
    "hex",
  );
  gif.writeUInt16LE(width, 6);
  gif.writeUInt16LE(height, 8);
  return gif;
}

/** A lossless WebP (`VP8L`) header of that size. */
export function webpImage(width: number, height: number): Buffer {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  const vp8l = Buffer.concat([Buffer.from("VP8L"), u32le(5), Buffer.from([0x2f]), u32le(bits)]);
  return Buffer.concat([Buffer.from("RIFF"), u32le(4 + vp8l.length), Buffer.from("WEBP"), vp8l]);
}

function u32le(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0, 0);
  return buffer;
}
