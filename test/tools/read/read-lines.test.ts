import { describe, expect, it } from "vitest";
import { type LineWindow, readLineWindow } from "../../../src/tools/read/read-lines.ts";

/** The bytes of `text` in chunks of `size`, so lines and CRLFs straddle chunk boundaries. */
async function* chunksOf(data: string | Buffer, size: number): AsyncGenerator<Buffer> {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const texts = (window: LineWindow) => (window.kind === "lines" ? window.lines.map((l) => l.text) : window);

describe("readLineWindow", () => {
  const file = "one\r\ntwo\nthree\r\nfour\nfive";

  it.each([1, 2, 3, 7, 1024])("gives the same lines whatever the chunk size (%i bytes)", async (size) => {
    const all = await readLineWindow(chunksOf(file, size), { offset: 1, limit: 10, maxLineBytes: 100 });
    expect(all).toMatchObject({ kind: "lines", more: false, totalLines: 5 });
    expect(texts(all)).toEqual(["one", "two", "three", "four", "five"]);
    const middle = await readLineWindow(chunksOf(file, size), { offset: 2, limit: 2, maxLineBytes: 100 });
    expect(middle).toMatchObject({ kind: "lines", more: true });
    expect(texts(middle)).toEqual(["two", "three"]);
  });

  it("knows the window reached the end only when nothing follows it", async () => {
    const exact = await readLineWindow(chunksOf("a\nb\n", 1), { offset: 1, limit: 2, maxLineBytes: 10 });
    expect(exact).toMatchObject({ kind: "lines", more: false, totalLines: 2 });
    const past = await readLineWindow(chunksOf("a\nb\n", 1), { offset: 3, limit: 2, maxLineBytes: 10 });
    expect(past).toEqual({ kind: "lines", lines: [], more: false, totalLines: 2 });
  });

  it("drops a byte-order mark and keeps empty lines", async () => {
    const data = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("x\n\ny\n")]);
    const window = await readLineWindow(chunksOf(data, 2), { offset: 1, limit: 5, maxLineBytes: 10 });
    expect(texts(window)).toEqual(["x", "", "y"]);
  });

  it("keeps at most maxLineBytes of a line and counts the rest", async () => {
    const window = await readLineWindow(chunksOf(`short\n${"z".repeat(50)}\n`, 4), {
      offset: 1,
      limit: 2,
      maxLineBytes: 8,
    });
    expect(window.kind === "lines" && window.lines).toEqual([
      { text: "short", bytes: 5, cut: false },
      { text: "zzzzzzzz", bytes: 50, cut: true },
    ]);
  });

  it("stops at a NUL byte: the text lines before it, else binary", async () => {
    const data = Buffer.concat([Buffer.from("a\nb\n"), Buffer.alloc(4), Buffer.from("c\n")]);
    const cut = await readLineWindow(chunksOf(data, 3), { offset: 2, limit: 5, maxLineBytes: 10 });
    expect(cut).toMatchObject({ kind: "lines", more: false, binaryFrom: 4 });
    expect(texts(cut)).toEqual(["b"]);
    expect(await readLineWindow(chunksOf(data, 3), { offset: 3, limit: 5, maxLineBytes: 10 })).toEqual({
      kind: "binary",
      afterLine: 2,
      byte: 4,
    });
    const before = await readLineWindow(chunksOf(data, 3), { offset: 1, limit: 2, maxLineBytes: 10 });
    expect(before).toMatchObject({ kind: "lines", more: true });
    expect(texts(before)).toEqual(["a", "b"]);
  });

  it("leaves the source as soon as the window is complete", async () => {
    let pulled = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        pulled++;
        yield Buffer.from("line\n".repeat(10));
      }
    }
    const window = await readLineWindow(endless(), { offset: 15, limit: 3, maxLineBytes: 10 });
    expect(texts(window)).toEqual(["line", "line", "line"]);
    expect(pulled).toBe(2);
  });
});
