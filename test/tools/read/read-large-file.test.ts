import { truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { READ_MAX_BYTES, readTool } from "../../../src/tools/read/read.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tool-context.ts";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(() => box.cleanup());

const read = (args: Record<string, unknown>) => runTool(readTool, args, makeContext(box.workspace).ctx);

const TEXT_LINES = 10_000;
/** Far more than fits in a Buffer (and than READ_MAX_BYTES): a read that loads the file cannot pass. */
const HUGE = 8 * 1024 ** 3;

/**
 * `huge.log`: 10,000 text lines, then zeros up to 8 GiB (a sparse file: it takes no disk space).
 * Returns the size of the text, where the zeros begin.
 */
async function hugeLog(): Promise<number> {
  const path = join(box.workspace, "huge.log");
  const lines = Array.from({ length: TEXT_LINES }, (_, i) => `event ${i + 1}: ${"x".repeat(40)}`);
  const text = `${lines.join("\n")}\n`;
  await writeFile(path, text);
  await truncate(path, HUGE);
  return Buffer.byteLength(text);
}

describe("read on a file larger than it loads whole", () => {
  it("returns the lines offset/limit ask for, reading only up to them", async () => {
    await hugeLog();
    expect(HUGE).toBeGreaterThan(READ_MAX_BYTES);
    // Reading 8 GiB whole would not fit in memory, or outlast the test's bound on any disk.
    const result = await read({ path: "huge.log", offset: 5000, limit: 3 });
    expect(result.content).toBe(
      [
        `5000\tevent 5000: ${"x".repeat(40)}`,
        `5001\tevent 5001: ${"x".repeat(40)}`,
        `5002\tevent 5002: ${"x".repeat(40)}`,
        "",
        "(Showing lines 5000-5002 of a 8.0 GB file, read only this far. Use offset=5003 to read more.)",
      ].join("\n"),
    );
    expect(result.details).toMatchObject({ path: "huge.log", startLine: 5000, endLine: 5002 });
  });

  it("without offset/limit it returns the first 2000 lines", async () => {
    await hugeLog();
    const result = await read({ path: "huge.log" });
    const numbered = result.content.split("\n").filter((line) => line.includes("\t"));
    expect(numbered).toHaveLength(2000);
    expect(numbered[0]).toBe(`1\tevent 1: ${"x".repeat(40)}`);
    expect(result.content).toMatch(/Use offset=2001 to read more\.\)$/);
  });

  it("stops at binary data instead of scanning gigabytes of it", async () => {
    const textBytes = await hugeLog();
    const last = await read({ path: "huge.log", offset: TEXT_LINES - 1, limit: 10 });
    expect(last.content).toBe(
      [
        `9999\tevent 9999: ${"x".repeat(40)}`,
        `10000\tevent 10000: ${"x".repeat(40)}`,
        "",
        `(Showing lines 9999-10000; binary data follows from byte ${textBytes.toLocaleString("en-US")}, and read shows text only.)`,
      ].join("\n"),
    );
    await expect(read({ path: "huge.log", offset: TEXT_LINES + 5 })).rejects.toThrow(
      /huge\.log has binary data after line 10000 \(byte [\d,]+\); read shows text only/,
    );
  });

  it("refuses a huge binary file from its first bytes", async () => {
    const path = join(box.workspace, "disk.img");
    await writeFile(path, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 0]));
    await truncate(path, HUGE);
    await expect(read({ path: "disk.img", offset: 2 })).rejects.toThrow(/disk\.img looks like a binary file/);
  });

  it("cuts a line of many megabytes without holding it", async () => {
    const path = join(box.workspace, "minified.js");
    await writeFile(path, `first\n${"a".repeat(READ_MAX_BYTES + 1024)}\nlast\n`);
    const result = await read({ path: "minified.js", offset: 2, limit: 2 });
    const [second, third] = result.content.split("\n");
    expect(second).toBe(
      `2\t${"a".repeat(2000)}… [line cut at 2000 characters; the line has ${(READ_MAX_BYTES + 1024).toLocaleString("en-US")} bytes]`,
    );
    expect(third).toBe("3\tlast");
  });
});
