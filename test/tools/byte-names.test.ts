import { describe, expect, it } from "vitest";
import { fsPath, nameFromBytes, pathFromBytes } from "../../src/tools/byte-names.ts";

const bytes = (...values: Array<number | string>) =>
  Buffer.concat(values.map((v) => (typeof v === "string" ? Buffer.from(v) : Buffer.from([v]))));

/** What `fsPath` gives for a path, as bytes. */
const onDisk = (path: string) => {
  const target = fsPath(path);
  return typeof target === "string" ? Buffer.from(target) : target;
};

describe.skipIf(process.platform === "win32")("byte-names", () => {
  it("leaves valid UTF-8 names alone", () => {
    for (const name of ["a.txt", "café.txt", "日本語", "emoji 🎉", "back\\slash", "x41"]) {
      expect(nameFromBytes(Buffer.from(name))).toBe(name);
      expect(fsPath(`/w/${name}`)).toBe(`/w/${name}`);
    }
  });

  it("writes the bytes that are not UTF-8 as \\xHH, and lookalike names with their backslash escaped", () => {
    expect(nameFromBytes(bytes("caf", 0xe9, ".txt"))).toBe("caf\\xE9.txt");
    expect(nameFromBytes(bytes(0xc3))).toBe("\\xC3"); // a character cut short
    expect(nameFromBytes(bytes(0xed, 0xa0, 0x80))).toBe("\\xED\\xA0\\x80"); // an encoded surrogate
    expect(nameFromBytes(bytes(0xc0, 0xaf))).toBe("\\xC0\\xAF"); // an overlong "/"
    expect(nameFromBytes(bytes("é\\", 0xff))).toBe("é\\x5C\\xFF");
    expect(nameFromBytes(Buffer.from("a\\x41.txt"))).toBe("a\\x5Cx41.txt");
  });

  it("maps every name back to its bytes", () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = [
      0x41, 0x5c, 0x78, 0x31, 0x46, 0xc3, 0xa9, 0xe9, 0xff, 0xf0, 0x9f, 0x8e, 0x89, 0x80, 0x2e,
    ];
    for (let run = 0; run < 5000; run++) {
      const name = Buffer.from(
        Array.from(
          { length: 1 + Math.floor(random() * 12) },
          () => alphabet[Math.floor(random() * alphabet.length)] ?? 0,
        ),
      );
      const shown = nameFromBytes(name);
      expect(onDisk(`/w/${shown}/f`), shown).toEqual(
        Buffer.concat([Buffer.from("/w/"), name, Buffer.from("/f")]),
      );
    }
  });

  it("reads a whole path segment by segment", () => {
    expect(pathFromBytes(bytes("/tmp/", 0xe9, "/b"))).toBe("/tmp/\\xE9/b");
    expect(onDisk("/tmp/\\xE9/b")).toEqual(bytes("/tmp/", 0xe9, "/b"));
  });
});
