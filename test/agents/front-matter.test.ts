import { describe, expect, it } from "vitest";
import { parseFrontMatter } from "../../src/agents/front-matter.ts";

const file = "/p/agent.md";

describe("parseFrontMatter", () => {
  it("parses valid YAML strictly, with the line of every key", () => {
    const fm = parseFrontMatter("---\nname: a\ntools:\n  - Read\nmaxTurns: 3\n---\n\nBody\n", file);
    expect(fm).toEqual({
      present: true,
      data: { name: "a", tools: ["Read"], maxTurns: 3 },
      keyLines: { name: 2, tools: 3, maxTurns: 5 },
      body: "Body",
      diagnostics: [],
    });
  });

  it("handles CRLF line endings, a BOM and an empty front matter", () => {
    const crlf = parseFrontMatter("\uFEFF---\r\nname: a\r\n---\r\nBody\r\n", file);
    expect(crlf.data).toEqual({ name: "a" });
    expect(crlf.body).toBe("Body");
    expect(parseFrontMatter("---\n---\nBody", file)).toMatchObject({ present: true, data: {}, body: "Body" });
  });

  it("reports a file without front matter as absent, body intact", () => {
    expect(parseFrontMatter("# Notes\n\ntext", file)).toEqual({
      present: false,
      data: {},
      keyLines: {},
      body: "# Notes\n\ntext",
      diagnostics: [],
    });
  });

  it("falls back to the lenient reader with a warning naming the failing line", () => {
    const fm = parseFrontMatter(
      "---\nname: a\ndescription: Use when: x happens\nmodel: opus\n---\nBody",
      file,
    );
    expect(fm.data).toEqual({ name: "a", description: "Use when: x happens", model: "opus" });
    expect(fm.keyLines).toEqual({ name: 2, description: 3, model: 4 });
    expect(fm.diagnostics).toEqual([
      expect.objectContaining({
        severity: "warning",
        file,
        line: 3,
        action: "read it with the lenient parser",
      }),
    ]);
  });

  it("leniently reads block scalars, compact lists, inline lists, nested maps and quoted values", () => {
    const text = [
      "---",
      "description: Use it: often",
      "literal: |",
      "  one: 1",
      "  two",
      "folded: >-",
      "  a",
      "  b",
      "",
      "  c",
      "list:",
      "- Read",
      "- 'Grep'",
      'inline: [Read, "Bash"]',
      "nested:",
      "  write: false",
      "  edit: true",
      'quoted: "x: y"',
      "count: 7",
      "flag: true",
      "---",
    ].join("\n");
    const fm = parseFrontMatter(text, file);
    expect(fm.data).toEqual({
      description: "Use it: often",
      literal: "one: 1\ntwo\n",
      folded: "a b\nc",
      list: ["Read", "Grep"],
      inline: ["Read", "Bash"],
      nested: { write: false, edit: true },
      quoted: "x: y",
      count: 7,
      flag: true,
    });
  });

  it("continues a plain value over indented lines and reports lines it cannot read", () => {
    const text = "---\ndescription: starts here: and\n  goes on\nthis is not a key\nname: n\n---\n";
    const fm = parseFrontMatter(text, file);
    expect(fm.data).toEqual({ description: "starts here: and goes on", name: "n" });
    expect(fm.diagnostics.map((d) => [d.line, d.message])).toEqual([
      [2, expect.stringContaining("not valid YAML")],
      [4, 'could not read front matter line "this is not a key"'],
    ]);
  });

  it("keeps the last of duplicate keys and says so", () => {
    const fm = parseFrontMatter("---\nname: a\nname: b\n---\n", file);
    expect(fm.data.name).toBe("b");
    expect(fm.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining("not valid YAML"),
      "key name appears twice",
    ]);
  });

  it("reports a front matter without its closing line as an error", () => {
    const fm = parseFrontMatter("---\nname: a\nbody", file);
    expect(fm.diagnostics).toEqual([
      {
        severity: "error",
        file,
        line: 1,
        message: "front matter is not closed (no second `---` line)",
        action: "skipped the file",
      },
    ]);
  });

  it("does not treat a scalar front matter as keys", () => {
    const fm = parseFrontMatter("---\njust a sentence\n---\nBody", file);
    expect(fm.data).toEqual({});
    expect(fm.diagnostics.map((d) => d.severity)).toEqual(["warning", "warning"]);
  });
});
