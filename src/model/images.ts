import type { ImagePart } from "./messages.ts";

/** The image formats every provider agentry speaks takes as input. */
export type ImageFormat = "PNG" | "JPEG" | "GIF" | "WebP";

export interface ImageInfo {
  format: ImageFormat;
  mediaType: `image/${"png" | "jpeg" | "gif" | "webp"}`;
  /** Pixels, when the header says (it always does for a well-formed file). */
  width?: number;
  height?: number;
}

/**
 * The largest image sent to a model, in bytes of the file: Anthropic refuses an image whose base64
 * passes 5 MB (5,242,880 characters), which is 3.75 MB of file; OpenAI allows more.
 */
export const MAX_IMAGE_BYTES = 3_932_160;
/** Anthropic refuses an image wider or taller than this. */
export const MAX_IMAGE_SIDE = 8000;

const MEDIA_TYPES = {
  PNG: "image/png",
  JPEG: "image/jpeg",
  GIF: "image/gif",
  WebP: "image/webp",
} as const satisfies Record<ImageFormat, ImageInfo["mediaType"]>;

/**
 * The image format of a file by its first bytes (its magic number, not its name), with its size in
 * pixels read from the header; undefined for anything that is not a PNG, JPEG, GIF or WebP.
 */
export function sniffImage(bytes: Uint8Array): ImageInfo | undefined {
  const format = formatOf(bytes);
  if (format === undefined) return undefined;
  const size = sizeOf(format, bytes);
  return { format, mediaType: MEDIA_TYPES[format], ...(size ?? {}) };
}

function formatOf(b: Uint8Array): ImageFormat | undefined {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "PNG";
  if (startsWith(b, [0xff, 0xd8, 0xff])) return "JPEG";
  if (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a") return "GIF";
  if (ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "WebP";
  return undefined;
}

function sizeOf(format: ImageFormat, b: Uint8Array): { width: number; height: number } | undefined {
  switch (format) {
    case "PNG":
      // The IHDR chunk comes first: width and height, big-endian, after its length and name.
      return b.length >= 24 && ascii(b, 12, 4) === "IHDR"
        ? { width: u32be(b, 16), height: u32be(b, 20) }
        : undefined;
    case "GIF":
      return b.length >= 10 ? { width: u16le(b, 6), height: u16le(b, 8) } : undefined;
    case "WebP":
      return webpSize(b);
    case "JPEG":
      return jpegSize(b);
  }
}

function webpSize(b: Uint8Array): { width: number; height: number } | undefined {
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8 " && b.length >= 30) {
    // A lossy key frame: 3 bytes of frame tag and 3 of start code, then 14-bit width and height.
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === "VP8L" && b.length >= 25 && b[20] === 0x2f) {
    // Lossless: after the 0x2f signature, width-1 and height-1 in 14 bits each, little-endian.
    const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X" && b.length >= 30) {
    // Extended: the canvas' width-1 and height-1 in 24 bits each.
    return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  }
  return undefined;
}

/** The size in a JPEG's start-of-frame segment, found by walking the segments before it. */
function jpegSize(b: Uint8Array): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Markers without a length: TEM, RSTn, SOI, EOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      at += 2;
      continue;
    }
    const length = u16be(b, at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: u16be(b, at + 5), width: u16be(b, at + 7) };
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/**
 * Why an image cannot be sent to a model (too many bytes or pixels), or undefined when it can. The
 * message names the size and says how to make a copy that fits; `what` names the image (`shot.png`).
 */
export function imageTooLarge(info: ImageInfo, bytes: number, what: string): string | undefined {
  const pixels = info.width !== undefined ? ` (${info.width}×${info.height} px)` : "";
  const overBytes = bytes > MAX_IMAGE_BYTES;
  const overSide = (info.width ?? 0) > MAX_IMAGE_SIDE || (info.height ?? 0) > MAX_IMAGE_SIDE;
  if (!overBytes && !overSide) return undefined;
  const limit = overBytes
    ? `more than the ${formatMegabytes(MAX_IMAGE_BYTES)} an image sent to a model may have`
    : `wider or taller than the ${MAX_IMAGE_SIDE} px an image sent to a model may be`;
  return (
    `${what} is a ${info.format} image of ${formatMegabytes(bytes)}${pixels}, ${limit}; agentry does not ` +
    "shrink images. Make a smaller copy and use that, e.g. `magick in.png -resize 1568x1568 -quality 85 out.jpg` " +
    "(ImageMagick), `ffmpeg -i in.png -vf scale=1568:-1 out.jpg`, or `sips -Z 1568 in.png --out out.png` (macOS)."
  );
}

/** An image part of a file's bytes, with its size in pixels (for token estimates) when known. */
export function imagePartOf(bytes: Uint8Array, info: ImageInfo): ImagePart {
  return {
    type: "image",
    mediaType: info.mediaType,
    data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
    ...(info.width !== undefined && info.height !== undefined
      ? { width: info.width, height: info.height }
      : {}),
  };
}

/** `PNG image, 800×600 px, 120 KB`: one line about an image, for the model and the user. */
export function describeImage(info: ImageInfo, bytes: number): string {
  const pixels = info.width !== undefined ? `, ${info.width}×${info.height} px` : "";
  return `${info.format} image${pixels}, ${formatKilobytes(bytes)}`;
}

/** The bytes an image part's base64 stands for. */
export function imageBytes(part: Pick<ImagePart, "data">): number {
  return Buffer.byteLength(part.data, "base64");
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

function formatKilobytes(bytes: number): string {
  return bytes < 1_048_576 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : formatMegabytes(bytes);
}

function startsWith(b: Uint8Array, prefix: readonly number[]): boolean {
  return b.length >= prefix.length && prefix.every((byte, i) => b[i] === byte);
}

function ascii(b: Uint8Array, at: number, length: number): string {
  return b.length < at + length ? "" : String.fromCharCode(...b.subarray(at, at + length));
}

const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u24le = (b: Uint8Array, at: number) => u16le(b, at) | ((b[at + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, at: number) => ((u16be(b, at) << 16) >>> 0) + u16be(b, at + 2);
