import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PathChangedError } from "../../src/tools/exact-path-io.ts";
import { nodeOperations as ops } from "../../src/tools/node-operations.ts";
import { makeSandbox } from "./tool-context.ts";

/** A workspace with `real/file` ("inside"), a link `link` → `real`, and `outside/file` ("outside"). */
async function layout() {
  const { workspace, outside } = await makeSandbox();
  await mkdir(join(workspace, "real"));
  await writeFile(join(workspace, "real", "file"), "inside\n");
  await writeFile(join(outside, "file"), "outside\n");
  await symlink(join(workspace, "real"), join(workspace, "link"));
  await symlink(join(outside, "file"), join(workspace, "real", "out-link"));
  return { workspace, outside };
}

// The contract (operations.ts): the file methods act on exactly the real path they are given.
describe("nodeOperations opens exactly the path it is given", () => {
  it("refuses a path with a symbolic link in it, even one that stays inside", async () => {
    const { workspace, outside } = await layout();
    await expect(ops.readFile(join(workspace, "link", "file"))).rejects.toThrow(PathChangedError);
    await expect(ops.readFile(join(workspace, "real", "out-link"))).rejects.toThrow(PathChangedError);
    await expect(ops.readdir(join(workspace, "link"))).rejects.toThrow(PathChangedError);
    await expect(ops.writeFile(join(workspace, "link", "new"), "x")).rejects.toThrow(PathChangedError);
    await expect(ops.writeFile(join(workspace, "real", "out-link"), "x")).rejects.toThrow(PathChangedError);
    await expect(ops.mkdir(join(workspace, "link", "a", "b"))).rejects.toThrow(PathChangedError);
    expect(await readFile(join(outside, "file"), "utf8")).toBe("outside\n");
    expect((await readdir(join(workspace, "real"))).sort()).toEqual(["file", "out-link"]);
    const chunks = async () => {
      for await (const _ of ops.readChunks(join(workspace, "real", "out-link"))) return;
    };
    await expect(chunks()).rejects.toThrow(PathChangedError);
  });

  it("writes in place through the checked descriptor, creating missing folders inside", async () => {
    const { workspace } = await layout();
    await ops.writeFile(join(workspace, "real", "file"), "new\n");
    await ops.writeFile(join(workspace, "a", "b", "c.txt"), "deep\n");
    expect(await readFile(join(workspace, "real", "file"), "utf8")).toBe("new\n");
    expect(await readFile(join(workspace, "a", "b", "c.txt"), "utf8")).toBe("deep\n");
    expect(String(await ops.readFile(join(workspace, "a", "b", "c.txt")))).toBe("deep\n");
  });

  it("refuses a named pipe at once instead of waiting for a writer", async () => {
    const { workspace } = await layout();
    execFileSync("mkfifo", [join(workspace, "pipe")]);
    await expect(ops.readFile(join(workspace, "pipe"))).rejects.toThrow(/not a regular file/);
  });

  it("hands a command the opened file, not its name: a swap after the open changes nothing", async () => {
    const { workspace, outside } = await layout();
    const file = join(workspace, "real", "file");
    const read = await ops.withOpenFiles([file, join(workspace, "real", "missing")], async (opened) => {
      expect(opened[1]).toBeUndefined();
      // The folder becomes a link to outside between the open and the command's read.
      await rename(join(workspace, "real"), join(workspace, "parked"));
      await symlink(outside, join(workspace, "real"));
      const result = await ops.exec(`cat '${opened[0]}'`, {
        cwd: workspace,
        signal: new AbortController().signal,
        timeoutMs: 10_000,
      });
      return result.output;
    });
    // Without /proc (macOS) only the name can be handed on, and the swap wins: docs/security.md says so.
    expect(read).toBe(process.platform === "linux" ? "inside\n" : "outside\n");
  });
});
