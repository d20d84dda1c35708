import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { writeFileAtomic } from "../../src/tasks/workspace/atomic-write.ts";
import { tempDir } from "../support/temp-dir.ts";

it("creates or replaces the file and leaves no temp file", async () => {
  const dir = await tempDir();
  const path = join(dir, "f.json");
  await writeFileAtomic(path, "one");
  await writeFileAtomic(path, "two");
  expect(await readFile(path, "utf8")).toBe("two");
  expect(await readdir(dir)).toEqual(["f.json"]);
});

it("keeps the old content and removes its temp file when the rename fails", async () => {
  const dir = await tempDir();
  const path = join(dir, "f.json");
  await mkdir(path); // a directory in the way: rename(file, dir) fails
  await writeFile(join(path, "keep"), "x");
  await expect(writeFileAtomic(path, "new")).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST|EPERM/);
  expect(await readdir(dir)).toEqual(["f.json"]);
  expect(await readdir(path)).toEqual(["keep"]);
});

it("fails with the file system's error when the directory is missing", async () => {
  const path = join(await tempDir(), "missing", "f.json");
  await expect(writeFileAtomic(path, "x")).rejects.toThrow(/ENOENT/);
});
