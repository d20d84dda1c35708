import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { editTool } from "../../../src/tools/edit/edit.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tool-context.ts";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});

const edit = (args: Record<string, unknown>) => runTool(editTool, args, makeContext(box.workspace).ctx);
const put = (name: string, content: string) => writeFile(join(box.workspace, name), content);
const get = (name: string) => readFile(join(box.workspace, name), "utf8");

describe("edit", () => {
  it("replaces a unique exact match and asks for edit permission", async () => {
    await put("a.ts", "const a = 1;\nconst b = 2;\n");
    const { ctx, asks } = makeContext(box.workspace);
    const result = await runTool(editTool, { path: "a.ts", old_string: "b = 2", new_string: "b = 3" }, ctx);
    expect(result.content).toBe("Edited a.ts: replaced 1 occurrence (first at line 2).");
    expect(await get("a.ts")).toBe("const a = 1;\nconst b = 3;\n");
    expect(asks).toEqual([{ permission: "edit", patterns: ["a.ts"], title: "edit a.ts" }]);
  });

  it("refuses an ambiguous match, saying how many and where", async () => {
    await put("a.ts", "x = 1\ny = 2\nx = 1\n");
    await expect(edit({ path: "a.ts", old_string: "x = 1", new_string: "x = 9" })).rejects.toThrow(
      "old_string occurs 2 times in a.ts (lines 1, 3). Include more surrounding lines to make it unique, or set replace_all to true",
    );
    expect(await get("a.ts")).toBe("x = 1\ny = 2\nx = 1\n");
  });

  it("replaces every occurrence with replace_all, leaving $ patterns literal", async () => {
    await put("a.ts", "foo(); foo(); bar();");
    const result = await edit({ path: "a.ts", old_string: "foo", new_string: "$&baz", replace_all: true });
    expect(result.content).toBe("Edited a.ts: replaced 2 occurrences (first at line 1).");
    expect(await get("a.ts")).toBe("$&baz(); $&baz(); bar();");
  });

  it("explains a miss: whitespace, read's line numbers, or read the file first", async () => {
    await put("a.py", "def f():\n    return 1\n");
    await expect(edit({ path: "a.py", old_string: "def f():\n  return 1", new_string: "x" })).rejects.toThrow(
      "old_string was not found in a.py. It matches only when whitespace is ignored",
    );
    await expect(edit({ path: "a.py", old_string: "2\t    return 1", new_string: "x" })).rejects.toThrow(
      "It seems to include read's line-number prefixes",
    );
    await expect(edit({ path: "a.py", old_string: "return 2", new_string: "x" })).rejects.toThrow(
      "old_string was not found in a.py. Read the file first and copy the exact text, including whitespace and indentation.",
    );
  });

  it("refuses identical old and new strings", async () => {
    await put("a.ts", "x");
    await expect(edit({ path: "a.ts", old_string: "x", new_string: "x" })).rejects.toThrow(
      "old_string and new_string are identical",
    );
  });

  it("creates a missing file when old_string is empty", async () => {
    const result = await edit({ path: "new/file.md", old_string: "", new_string: "# Title\n" });
    expect(result.content).toBe("Created new/file.md (8 bytes).");
    expect(await get("new/file.md")).toBe("# Title\n");
  });

  it("refuses an empty old_string on a non-empty file, but fills an empty one", async () => {
    await put("full.txt", "content");
    await expect(edit({ path: "full.txt", old_string: "", new_string: "x" })).rejects.toThrow(
      "old_string is empty, but full.txt already exists and is not empty.",
    );
    await put("empty.txt", "");
    await edit({ path: "empty.txt", old_string: "", new_string: "filled" });
    expect(await get("empty.txt")).toBe("filled");
  });

  it("reports a missing file with a hint to create it", async () => {
    await put("index.ts", "");
    await expect(edit({ path: "indx.ts", old_string: "a", new_string: "b" })).rejects.toThrow(
      "indx.ts does not exist. Did you mean: index.ts? To create a new file, use write (or edit with an empty old_string).",
    );
  });

  it("keeps CRLF line endings when the model sends LF text", async () => {
    await put("win.txt", "one\r\ntwo\r\nthree\r\n");
    await edit({ path: "win.txt", old_string: "one\ntwo", new_string: "uno\ndos\nextra" });
    expect(await get("win.txt")).toBe("uno\r\ndos\r\nextra\r\nthree\r\n");
  });

  it("leaves LF files and lone-LF lines of a mixed file alone", async () => {
    await put("mixed.txt", "a\r\nb\nc\r\n");
    await edit({ path: "mixed.txt", old_string: "c", new_string: "C" });
    expect(await get("mixed.txt")).toBe("a\r\nb\nC\r\n");
    await put("unix.txt", "a\nb\n");
    await edit({ path: "unix.txt", old_string: "a\nb", new_string: "x\ny" });
    expect(await get("unix.txt")).toBe("x\ny\n");
  });
});
