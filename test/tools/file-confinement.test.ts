import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { editTool } from "../../src/tools/edit/edit.ts";
import { globTool } from "../../src/tools/glob/glob.ts";
import { grepTool } from "../../src/tools/grep/grep.ts";
import { listTool } from "../../src/tools/list/list.ts";
import { readTool } from "../../src/tools/read/read.ts";
import { writeTool } from "../../src/tools/write/write.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "./tool-context.ts";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
  await writeFile(join(box.outside, "secret.txt"), "TOP SECRET\n");
  await symlink(join(box.outside, "secret.txt"), join(box.workspace, "link.txt"));
  await symlink(box.outside, join(box.workspace, "linkdir"));
});

/** Every way a model-given path can point outside. */
const outsidePaths = () => [
  "../outside/secret.txt",
  join(box.outside, "secret.txt"),
  "link.txt",
  "linkdir/secret.txt",
  "linkdir/new.txt",
];

describe("file tools stay inside the workspace", () => {
  it("read refuses every outside path and asks no permission for it", async () => {
    for (const path of outsidePaths()) {
      const { ctx, asks } = makeContext(box.workspace);
      await expect(runTool(readTool, { path }, ctx)).rejects.toThrow(/outside the workspace/);
      expect(asks).toEqual([]);
    }
  });

  it("write refuses every outside path and writes nothing outside", async () => {
    for (const path of outsidePaths()) {
      const { ctx } = makeContext(box.workspace);
      await expect(runTool(writeTool, { path, content: "pwned" }, ctx)).rejects.toThrow(
        /outside the workspace/,
      );
    }
    expect(await readdir(box.outside)).toEqual(["secret.txt"]);
    expect(await readFile(join(box.outside, "secret.txt"), "utf8")).toBe("TOP SECRET\n");
  });

  it("edit refuses every outside path, including file creation, and changes nothing outside", async () => {
    for (const path of outsidePaths()) {
      const { ctx } = makeContext(box.workspace);
      await expect(
        runTool(editTool, { path, old_string: "TOP SECRET", new_string: "pwned" }, ctx),
      ).rejects.toThrow(/outside the workspace/);
      await expect(runTool(editTool, { path, old_string: "", new_string: "pwned" }, ctx)).rejects.toThrow(
        /outside the workspace/,
      );
    }
    expect(await readdir(box.outside)).toEqual(["secret.txt"]);
    expect(await readFile(join(box.outside, "secret.txt"), "utf8")).toBe("TOP SECRET\n");
  });

  it("write through a dangling symlink is refused instead of creating its target outside", async () => {
    await symlink(join(box.outside, "created.txt"), join(box.workspace, "dangling.txt"));
    const { ctx } = makeContext(box.workspace);
    await expect(runTool(writeTool, { path: "dangling.txt", content: "x" }, ctx)).rejects.toThrow(
      /symbolic link/,
    );
    expect(await readdir(box.outside)).toEqual(["secret.txt"]);
  });

  it("grep, glob and list refuse an outside path", async () => {
    const { ctx } = makeContext(box.workspace);
    await expect(runTool(grepTool, { pattern: "SECRET", path: "linkdir" }, ctx)).rejects.toThrow(/outside/);
    await expect(runTool(globTool, { pattern: "*", path: "../outside" }, ctx)).rejects.toThrow(/outside/);
    await expect(runTool(listTool, { path: box.outside }, ctx)).rejects.toThrow(/outside/);
  });

  it("directory walks never follow a symlink out of the workspace", async () => {
    await mkdir(join(box.workspace, "src"));
    await writeFile(join(box.workspace, "src", "a.txt"), "nothing here\n");
    const { ctx } = makeContext(box.workspace);
    const grep = await runTool(grepTool, { pattern: "SECRET", output_mode: "content" }, ctx);
    expect(grep.content).toBe(`No matches for "SECRET" in the workspace.`);
    const glob = await runTool(globTool, { pattern: "**/secret.txt" }, ctx);
    expect(glob.content).toMatch(/^No files match/);
    const list = await runTool(listTool, {}, ctx);
    expect(list.content).not.toContain("secret.txt");
    expect(list.content).toContain("linkdir (symlink)");
  });
});
