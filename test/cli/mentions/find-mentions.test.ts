import { describe, expect, it } from "vitest";
import { findMentions } from "../../../src/cli/mentions/find-mentions.ts";

describe("findMentions", () => {
  it("finds @path at the start or after a space, once each, in order", () => {
    expect(findMentions("@README.md and @src/app.ts, then @README.md again").map((m) => m.target)).toEqual([
      "README.md",
      "src/app.ts,",
    ]);
  });

  it("offers the path without sentence punctuation to try next", () => {
    const [first, second] = findMentions("explain @src/app.ts. and @docs/)");
    expect(first).toEqual({ text: "@src/app.ts.", target: "src/app.ts.", trimmed: "src/app.ts" });
    expect(second).toEqual({ text: "@docs/)", target: "docs/)", trimmed: "docs/" });
  });

  it("takes quoted names with spaces", () => {
    expect(findMentions('read @"my notes.md" please')).toEqual([
      { text: '@"my notes.md"', target: "my notes.md" },
    ]);
  });

  it("leaves e-mail addresses and an @ inside a word alone", () => {
    expect(findMentions("mail a@b.com or x@y, @ alone, @")).toEqual([]);
  });

  it("keeps server:uri whole, for the resolver of MCP resources", () => {
    expect(findMentions("see @github:repo://a/b")).toEqual([
      { text: "@github:repo://a/b", target: "github:repo://a/b" },
    ]);
  });
});
