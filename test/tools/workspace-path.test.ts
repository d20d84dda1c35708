import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import { ToolError } from "../../src/tools/tool.ts";
import { resolveWorkspacePath } from "../../src/tools/workspace-path.ts";
import { makeSandbox, type Sandbox } from "./tool-context.ts";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});

const resolvePath = (input: string, workspace = box.workspace) =>
  resolveWorkspacePath({ workspace, ops: nodeOperations }, input);

describe("resolveWorkspacePath", () => {
  it("resolves relative and absolute paths inside the workspace", async () => {
    await mkdir(join(box.workspace, "src"));
    await writeFile(join(box.workspace, "src", "a.ts"), "x");
    expect(await resolvePath("src/a.ts")).toEqual({
      absolute: join(box.workspace, "src", "a.ts"),
      relative: "src/a.ts",
      root: box.workspace,
      exists: true,
    });
    expect((await resolvePath(join(box.workspace, "src/a.ts"))).relative).toBe("src/a.ts");
    expect((await resolvePath(".")).relative).toBe(".");
    expect((await resolvePath("src/../src/./a.ts")).relative).toBe("src/a.ts");
  });

  it("resolves a path that does not exist yet through its nearest existing ancestor", async () => {
    const result = await resolvePath("new/deep/file.txt");
    expect(result).toMatchObject({ relative: "new/deep/file.txt", exists: false });
    expect(result.absolute).toBe(join(box.workspace, "new/deep/file.txt"));
  });

  it("refuses .. traversal, naming the path, the outside location and the workspace root", async () => {
    const error = await resolvePath("../outside/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toBe(
      `Refusing "../outside/x": it resolves to ${join(box.outside, "x")}, which is outside the workspace. Only paths inside the workspace root ${box.workspace} can be used.`,
    );
  });

  it("refuses absolute paths outside, including a sibling sharing the root's prefix", async () => {
    await expect(resolvePath("/etc/passwd")).rejects.toThrow(/outside the workspace/);
    await mkdir(`${box.workspace}-evil`);
    await expect(resolvePath(`${box.workspace}-evil/x`)).rejects.toThrow(/outside the workspace/);
  });

  it("refuses a symlinked file and a symlinked parent directory that lead outside", async () => {
    await writeFile(join(box.outside, "secret.txt"), "s");
    await symlink(join(box.outside, "secret.txt"), join(box.workspace, "link.txt"));
    await symlink(box.outside, join(box.workspace, "linkdir"));
    await expect(resolvePath("link.txt")).rejects.toThrow(
      `it resolves through a symbolic link to ${join(box.outside, "secret.txt")}, which is outside the workspace`,
    );
    await expect(resolvePath("linkdir/secret.txt")).rejects.toThrow(/through a symbolic link/);
    await expect(resolvePath("linkdir/not-yet/new.txt")).rejects.toThrow(/outside the workspace/);
  });

  it("refuses a dangling symlink, whose target could be anywhere", async () => {
    await symlink(join(box.outside, "missing.txt"), join(box.workspace, "dangling"));
    await expect(resolvePath("dangling")).rejects.toThrow(/symbolic link whose target does not exist/);
  });

  it("accepts a symlink that stays inside and reports the real path", async () => {
    await mkdir(join(box.workspace, "real"));
    await writeFile(join(box.workspace, "real", "f.txt"), "x");
    await symlink(join(box.workspace, "real"), join(box.workspace, "alias"));
    expect(await resolvePath("alias/f.txt")).toMatchObject({ relative: "real/f.txt" });
  });

  it("works when the workspace itself is given through a symlink", async () => {
    const alias = join(box.outside, "ws-alias");
    await symlink(box.workspace, alias);
    await writeFile(join(box.workspace, "a.txt"), "x");
    expect(await resolvePath("a.txt", alias)).toMatchObject({ relative: "a.txt", root: box.workspace });
  });

  it("rejects an empty path and a NUL byte with a clear message", async () => {
    await expect(resolvePath("  ")).rejects.toThrow("The path is empty");
    await expect(resolvePath("a\0b")).rejects.toThrow("contains a NUL byte");
  });
});
