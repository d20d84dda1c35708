/** How much of a file `looksBinary` looks at. */
export const BINARY_SAMPLE_BYTES = 8192;

/** A NUL byte in the first 8 KB: ripgrep's test for a binary file, and grep's (both engines). */
export function startsBinary(data: Uint8Array): boolean {
  return data.subarray(0, BINARY_SAMPLE_BYTES).includes(0);
}

/**
 * True for content that is not text: a NUL byte in the first 8 KB, or more than 10% of the sample failing
 * to decode as UTF-8 (Latin-1 text with a few accented letters still passes).
 */
export function looksBinary(data: Uint8Array): boolean {
  const sample = data.subarray(0, BINARY_SAMPLE_BYTES);
  if (sample.includes(0)) return true;
  if (sample.length === 0) return false;
  const decoded = new TextDecoder("utf-8", { fatal: false }).decode(sample);
  let invalid = 0;
  for (const char of decoded) if (char === "\uFFFD") invalid += 1;
  // A multi-byte character cut by the sample's end decodes as one replacement character.
  return invalid > 1 && invalid / decoded.length > 0.1;
}

const IMAGE_TYPES: Record<string, string> = {
  ".png": "PNG",
  ".jpg": "JPEG",
  ".jpeg": "JPEG",
  ".gif": "GIF",
  ".webp": "WebP",
  ".bmp": "BMP",
  ".ico": "ICO",
};

/** The image format named by a file extension (`.png` → `PNG`), or undefined. */
export function imageTypeOf(extension: string): string | undefined {
  return IMAGE_TYPES[extension.toLowerCase()];
}

/** Splits text into lines without a phantom empty line after a final newline. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}
