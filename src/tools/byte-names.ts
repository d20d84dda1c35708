// File names are bytes on POSIX systems, and some are not valid UTF-8 (a Latin-1 `caf\xE9.txt`, an
// archive from another system). Node turns such a name into a string with U+FFFD in it, which names no
// file. The tools therefore show a name that is not valid UTF-8 with `\xHH` for each byte that is not
// part of a UTF-8 character (the form bash's `$'…'` takes), and turn that form back into the bytes when
// they touch the file system (`node-operations.ts`). Every path string above `Operations` is in this
// form, so list, glob and grep print names that read, edit and write accept.
//
// The mapping is one-to-one: a name is escaped when it is not valid UTF-8 or when it already contains
// something shaped like `\xHH`, and an escaped name has every backslash written as `\x5C`. A segment
// with no `\xHH` in it is taken literally.

const ESCAPE = /\\x[0-9A-Fa-f]{2}/;
const ONE_ESCAPE = /^\\x[0-9A-Fa-f]{2}$/;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
/** Windows names are UTF-16 and `\` separates them: nothing to escape, nothing to decode. */
const POSIX = process.platform !== "win32";

/** A file name (one path segment) from its bytes, as the tools show it. */
export function nameFromBytes(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (!POSIX) return text;
  const valid = isValidUtf8(bytes);
  if (valid && !ESCAPE.test(text)) return text;
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      out += hex(bytes[i] ?? 0);
      i += 1;
    } else if (bytes[i] === BACKSLASH) {
      out += hex(BACKSLASH);
      i += 1;
    } else {
      out += Buffer.from(bytes.subarray(i, i + length)).toString("utf8");
      i += length;
    }
  }
  return out;
}

/** A whole path from its bytes (e.g. what `realpath` returned), each segment as `nameFromBytes` shows it. */
export function pathFromBytes(bytes: Uint8Array): string {
  const segments: string[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === SLASH) {
      segments.push(nameFromBytes(bytes.subarray(start, i)));
      start = i + 1;
    }
  }
  return segments.join("/");
}

/** What to give node's `fs` for a path the tools use: the string itself, or the bytes it stands for. */
export function fsPath(path: string): string | Buffer {
  if (!POSIX || !ESCAPE.test(path)) return path;
  const parts = path
    .split("/")
    .map((segment) => (ESCAPE.test(segment) ? bytesOf(segment) : Buffer.from(segment)));
  const joined: Buffer[] = [];
  parts.forEach((part, index) => {
    if (index > 0) joined.push(Buffer.from("/"));
    joined.push(part);
  });
  return Buffer.concat(joined);
}

/** Whether a path the model gave uses the `\xHH` form (grep then searches without ripgrep). */
export function hasByteEscapes(path: string): boolean {
  return POSIX && ESCAPE.test(path);
}

function bytesOf(segment: string): Buffer {
  const parts: Buffer[] = [];
  let literal = "";
  for (let i = 0; i < segment.length; ) {
    const fourChars = segment.slice(i, i + 4);
    if (ONE_ESCAPE.test(fourChars)) {
      parts.push(Buffer.from(literal), Buffer.from([Number.parseInt(fourChars.slice(2), 16)]));
      literal = "";
      i += 4;
    } else {
      literal += segment[i];
      i += 1;
    }
  }
  parts.push(Buffer.from(literal));
  return Buffer.concat(parts);
}

function hex(byte: number): string {
  return `\\x${byte.toString(16).toUpperCase().padStart(2, "0")}`;
}

function isValidUtf8(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; ) {
    const length = sequenceLength(bytes, i);
    if (length === 0) return false;
    i += length;
  }
  return true;
}

/**
 * The length of the well-formed UTF-8 character at `i`, or 0 when the byte there starts none (Unicode
 * table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
 */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] ?? 0;
  if (lead < 0x80) return 1;
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  } else return 0;
  for (let k = 1; k < length; k++) {
    const byte = bytes[i + k];
    if (byte === undefined) return 0;
    const [min, max] = k === 1 ? [low, high] : [0x80, 0xbf];
    if (byte < min || byte > max) return 0;
  }
  return length;
}
