import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { readTool } from "../../../src/tools/read/read.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tool-context.ts";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});

const read = (args: Record<string, unknown>) => runTool(readTool, args, makeContext(box.workspace).ctx);
const file = (name: string, content: string | Buffer) => writeFile(join(box.workspace, name), content);

describe("read", () => {
  it("numbers lines (number, tab, text) and asks for read permission on the relative path", async () => {
    await file("a.txt", "alpha\nbeta\r\ngamma\n");
    const { ctx, asks } = makeContext(box.workspace);
    const result = await runTool(readTool, { path: "a.txt" }, ctx);
    expect(result.content).toBe("1\talpha\n2\tbeta\n3\tgamma");
    expect(asks).toEqual([{ permission: "read", patterns: ["a.txt"], title: "read a.txt" }]);
    expect(result.details).toMatchObject({ totalLines: 3, startLine: 1, endLine: 3 });
  });

  it("reads a range with offset and limit and says how to read on", async () => {
    await file("n.txt", Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n"));
    const result = await read({ path: "n.txt", offset: 4, limit: 2 });
    expect(result.content).toBe(
      "4\tline 4\n5\tline 5\n\n(Showing lines 4-5 of 10. Use offset=6 to read more.)",
    );
  });

  it("returns at most 2000 lines by default", async () => {
    await file("big.txt", Array.from({ length: 2500 }, (_, i) => `${i + 1}`).join("\n"));
    const result = await read({ path: "big.txt" });
    expect(result.content.split("\n").filter((line) => line.includes("\t"))).toHaveLength(2000);
    expect(result.content).toContain("Use offset=2001");
  });

  it("cuts lines longer than 2000 characters and says so", async () => {
    await file("long.txt", `${"x".repeat(5000)}\nshort\n`);
    const [first, second] = (await read({ path: "long.txt" })).content.split("\n");
    expect(first).toBe(`1\t${"x".repeat(2000)}… [line cut at 2000 of 5000 characters]`);
    expect(second).toBe("2\tshort");
  });

  it("refuses an offset past the end, naming the line count", async () => {
    await file("a.txt", "one\ntwo\n");
    await expect(read({ path: "a.txt", offset: 5 })).rejects.toThrow(
      "offset 5 is past the end of a.txt, which has 2 lines.",
    );
  });

  it("says when a file is empty", async () => {
    await file("empty.txt", "");
    expect((await read({ path: "empty.txt" })).content).toBe("empty.txt is empty.");
  });

  it("refuses binary content with its size", async () => {
    await file("blob.bin", Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02]));
    await expect(read({ path: "blob.bin" })).rejects.toThrow(
      "blob.bin looks like a binary file (7 bytes); read shows text only.",
    );
    await file("latin.bin", Buffer.from(Array.from({ length: 300 }, (_, i) => 0x80 + (i % 100))));
    await expect(read({ path: "latin.bin" })).rejects.toThrow(/looks like a binary file/);
  });

  it("reads UTF-8 text with multi-byte characters", async () => {
    await file("u.txt", "héllo wörld ✓ 日本\n");
    expect((await read({ path: "u.txt" })).content).toBe("1\théllo wörld ✓ 日本");
  });

  it("refuses a file named as an image whose bytes are not one, naming the format and size", async () => {
    await file("logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    await expect(read({ path: "logo.png" })).rejects.toThrow(
      "logo.png is named like a PNG image (4 bytes), but its bytes are not one",
    );
  });

  it("points to list for a directory", async () => {
    await mkdir(join(box.workspace, "src"));
    await expect(read({ path: "src" })).rejects.toThrow("src is a directory, use list to see its contents.");
  });

  it("reports a missing file with similar names from its directory", async () => {
    await mkdir(join(box.workspace, "src"));
    await writeFile(join(box.workspace, "src", "config.ts"), "");
    await writeFile(join(box.workspace, "src", "unrelated.md"), "");
    await expect(read({ path: "src/confg.ts" })).rejects.toThrow(
      "src/confg.ts does not exist. Did you mean: src/config.ts?",
    );
    await expect(read({ path: "src/config.js" })).rejects.toThrow("Did you mean: src/config.ts?");
    await expect(read({ path: "nope/x.ts" })).rejects.toThrow(
      "nope/x.ts does not exist (nor does its directory nope).",
    );
  });

  it("rejects bad arguments through its schema", () => {
    expect(() => readTool.schema.parse({ path: "a", offset: 0 })).toThrow();
    expect(() => readTool.schema.parse({ path: "a", limit: 1.5 })).toThrow();
    expect(() => readTool.schema.parse({})).toThrow();
  });
});
