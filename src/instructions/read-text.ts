import { open, realpath } from "node:fs/promises";

/** A file found and read, at most `maxBytes` of it. */
export interface TextRead {
  /** Its real path. */
  path: string;
  /** Bytes on disk. */
  size: number;
  /** Its first `maxBytes` bytes (a partial last character dropped). */
  text: string;
  /** It holds a NUL byte: not text. */
  binary: boolean;
}

/** Its real path, or undefined when nothing is there (or it cannot be resolved). */
export async function realPathOf(path: string): Promise<string | undefined> {
  return realpath(path).catch(() => undefined);
}

/**
 * Reads a regular file's head (so a huge file costs no memory); undefined when it is missing, not a
 * regular file, or unreadable.
 */
export async function readTextHead(path: string, maxBytes: number): Promise<TextRead | undefined> {
  const real = await realPathOf(path);
  if (real === undefined) return undefined;
  const handle = await open(real, "r").catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    const binary = bytes.includes(0);
    return { path: real, size: stats.size, text: binary ? "" : wholeCharacters(bytes), binary };
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => {});
  }
}

/** UTF-8 text of `bytes` without a character cut at the end, and without a byte-order mark. */
function wholeCharacters(bytes: Buffer): string {
  let end = bytes.length;
  // Back off over continuation bytes to the start of the last character, and drop it if incomplete.
  let start = end - 1;
  while (start > 0 && start > end - 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  const lead = bytes[start] ?? 0;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (start >= 0 && end - start < needed) end = start;
  const text = bytes.subarray(0, end).toString("utf8");
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}
