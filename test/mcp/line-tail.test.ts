import { describe, expect, it } from "vitest";
import { LineTail } from "../../src/mcp/line-tail.ts";

describe("LineTail", () => {
  it("keeps the last lines across chunks, the unfinished one included, blank ones skipped", () => {
    const tail = new LineTail(3);
    tail.write("one\ntw");
    tail.write(Buffer.from("o\r\n\nthree\nfour\nfi"));
    expect(tail.lines()).toEqual(["three", "four", "fi"]);
  });

  it("does not split a UTF-8 character across chunks, and cuts very long lines", () => {
    const tail = new LineTail();
    const bytes = Buffer.from("é\n");
    tail.write(bytes.subarray(0, 1));
    tail.write(bytes.subarray(1));
    tail.write(`${"x".repeat(600)}\n`);
    expect(tail.lines()).toEqual(["é", `${"x".repeat(500)}…`]);
  });
});
