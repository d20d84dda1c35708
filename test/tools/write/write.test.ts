import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { PermissionDeniedError } from "../../../src/permissions/types.ts";
import { writeTool } from "../../../src/tools/write/write.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tool-context.ts";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});

describe("write", () => {
  it("creates a file with its parent directories and asks for edit permission", async () => {
    const { ctx, asks } = makeContext(box.workspace);
    const result = await runTool(writeTool, { path: "a/b/c.txt", content: "héllo\n" }, ctx);
    expect(result.content).toBe("Created a/b/c.txt (7 bytes).");
    expect(result.details).toEqual({ path: "a/b/c.txt", bytes: 7, created: true });
    expect(await readFile(join(box.workspace, "a/b/c.txt"), "utf8")).toBe("héllo\n");
    expect(asks).toEqual([{ permission: "edit", patterns: ["a/b/c.txt"], title: "write a/b/c.txt" }]);
  });

  it("overwrites an existing file and reports the sizes", async () => {
    await writeFile(join(box.workspace, "x.txt"), "old content");
    const { ctx } = makeContext(box.workspace);
    const result = await runTool(writeTool, { path: "x.txt", content: "new" }, ctx);
    expect(result.content).toBe("Overwrote x.txt (3 bytes; was 11 bytes).");
    expect(await readFile(join(box.workspace, "x.txt"), "utf8")).toBe("new");
  });

  it("refuses to write over a directory", async () => {
    await mkdir(join(box.workspace, "dir"));
    const { ctx } = makeContext(box.workspace);
    await expect(runTool(writeTool, { path: "dir", content: "x" }, ctx)).rejects.toThrow(
      "dir is a directory; give the path of a file inside it.",
    );
  });

  it("writes nothing when permission is denied", async () => {
    const { ctx } = makeContext(box.workspace, {
      ask: async () => {
        throw new PermissionDeniedError("denied by rule");
      },
    });
    await expect(runTool(writeTool, { path: "x.txt", content: "x" }, ctx)).rejects.toThrow("denied by rule");
    await expect(readFile(join(box.workspace, "x.txt"))).rejects.toThrow(/ENOENT/);
  });

  it("says which parent is in the way when a path goes through a file", async () => {
    await writeFile(join(box.workspace, "file"), "x");
    const { ctx } = makeContext(box.workspace);
    await expect(runTool(writeTool, { path: "file/inner.txt", content: "x" }, ctx)).rejects.toThrow(
      /^Could not write file\/inner.txt: /,
    );
  });
});
