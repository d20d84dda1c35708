import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { LIST_MAX_ENTRIES, listTool } from "../../../src/tools/list/list.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tool-context.ts";

let box: Sandbox;
const put = async (name: string, content = "") => {
  await mkdir(dirname(join(box.workspace, name)), { recursive: true });
  await writeFile(join(box.workspace, name), content);
};
beforeEach(async () => {
  box = await makeSandbox();
});

const list = (args: Record<string, unknown>) => runTool(listTool, args, makeContext(box.workspace).ctx);

describe("list", () => {
  it("draws a tree, directories first with a trailing slash, ignoring .git, node_modules and .gitignore", async () => {
    for (const name of [
      "b.txt",
      "a.txt",
      "src/z.ts",
      "src/lib/y.ts",
      "node_modules/p/i.js",
      ".git/HEAD",
      "out/x",
    ]) {
      await put(name);
    }
    await put(".gitignore", "out/\n");
    const { ctx, asks } = makeContext(box.workspace);
    const result = await runTool(listTool, {}, ctx);
    expect(result.content).toBe(
      [
        `${box.workspace}/`,
        "  src/",
        "    lib/",
        "      y.ts",
        "    z.ts",
        "  .gitignore",
        "  a.txt",
        "  b.txt",
      ].join("\n"),
    );
    expect(asks).toEqual([{ permission: "read", patterns: ["."], title: "list ." }]);
  });

  it("lists a subdirectory and applies ignore patterns", async () => {
    for (const name of ["src/a.ts", "src/a.log", "src/gen/g.ts", "src/keep/k.ts"]) await put(name);
    const result = await list({ path: "src", ignore: ["*.log", "gen/"] });
    expect(result.content).toBe(
      [`${join(box.workspace, "src")}/`, "  keep/", "    k.ts", "  a.ts"].join("\n"),
    );
  });

  it("says when a directory is empty, and refuses a file or a missing path", async () => {
    await mkdir(join(box.workspace, "empty"));
    await put("f.txt");
    expect((await list({ path: "empty" })).content).toBe(`${join(box.workspace, "empty")}/\n  (empty)`);
    await expect(list({ path: "f.txt" })).rejects.toThrow("f.txt is a file, use read to see its content.");
    await expect(list({ path: "emty" })).rejects.toThrow("emty does not exist. Did you mean: empty?");
  });

  it(`stops at ${LIST_MAX_ENTRIES} entries, top levels first, with a note`, async () => {
    await put("deep/inner/file.txt");
    await Promise.all(
      Array.from({ length: LIST_MAX_ENTRIES }, (_, i) => put(`f${String(i).padStart(4, "0")}`)),
    );
    const result = await list({});
    expect(result.content).toContain("  deep/\n");
    expect(result.content).not.toContain("file.txt");
    expect(result.content).toMatch(
      /\(Listing stopped at 1000 entries; list a subdirectory or pass ignore patterns/,
    );
    expect(result.details).toMatchObject({ entries: LIST_MAX_ENTRIES, capped: true });
  });
});
