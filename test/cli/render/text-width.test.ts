import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cutToWidth, padEndToWidth, rowsCovered, textWidth } from "../../../src/cli/render/text-width.ts";

describe("terminal columns", () => {
  it("counts CJK and emoji as two columns, combining marks and colour codes as none", () => {
    expect(textWidth("abc")).toBe(3);
    expect(textWidth("数据")).toBe(4);
    expect(textWidth("🚀")).toBe(2);
    expect(textWidth("e\u0301")).toBe(1);
    expect(textWidth("\u001b[2mab\u001b[22m")).toBe(2);
  });

  it("cuts to a width in columns without splitting a character, ending in …", () => {
    expect(cutToWidth("数据模型", 8)).toBe("数据模型");
    expect(cutToWidth("数据模型", 7)).toBe("数据模…");
    expect(cutToWidth("数据模型", 6)).toBe("数据…");
    expect(cutToWidth("a🚀b", 3)).toBe("a…");
    expect(textWidth(cutToWidth("👩‍💻👩‍💻👩‍💻", 5))).toBeLessThanOrEqual(5);
    expect(cutToWidth("anything", 0)).toBe("");
  });

  it("pads to a width in columns", () => {
    expect(padEndToWidth("数据", 6)).toBe("数据  ");
  });

  it("counts the rows a line covers, a wide character that does not fit moving to the next row", () => {
    expect(rowsCovered("", 20)).toBe(1);
    expect(rowsCovered("x".repeat(20), 20)).toBe(1);
    expect(rowsCovered("x".repeat(21), 20)).toBe(2);
    expect(rowsCovered("字".repeat(10), 20)).toBe(1);
    expect(rowsCovered("字".repeat(11), 20)).toBe(2);
    // 21 columns hold ten of them a row, not ten and a half.
    expect(rowsCovered("字".repeat(21), 21)).toBe(3);
  });
});

describe("textWidth's cost", () => {
  it("measures printable ASCII without loading string-width, and loads it for the first other string", () => {
    const module = new URL("../../../src/cli/render/text-width.ts", import.meta.url).href;
    const script = `
      import { registerHooks } from "node:module";
      const loaded = [];
      registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
      const { textWidth } = await import(${JSON.stringify(module)});
      const widths = [textWidth("read src/a.ts  3 turns"), textWidth("")];
      const before = loaded.some((url) => url.includes("/string-width/"));
      widths.push(textWidth("数据 ✓"));
      const after = loaded.some((url) => url.includes("/string-width/"));
      process.stdout.write(JSON.stringify({ widths, before, after }));
    `;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(JSON.parse(output)).toEqual({ widths: [22, 0, 6], before: false, after: true });
  });
});
