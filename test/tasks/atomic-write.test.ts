import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { writeFileAtomic } from "../../src/tasks/workspace/atomic-write.ts";
import { describeNeeding } from "../support/components.ts";
import { openedHere } from "../support/open-descriptors.ts";
import { tempDir } from "../support/temp-dir.ts";
import { canMountTmpfs, remountReadOnly, TMPFS_MISSING, tmpfsDir } from "../support/tmpfs.ts";

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

it("leaves no descriptor open on the file or its folder", async () => {
  const dir = await tempDir();
  const path = join(dir, "f.json");
  await writeFileAtomic(path, "one");
  await writeFileAtomic(path, "two");
  expect(openedHere([path, dir])).toEqual([]);
});

describeNeeding(
  { present: canMountTmpfs(), what: "a tmpfs mount", missing: TMPFS_MISSING },
  "an atomic write on a read-only file system",
  () => {
    it("fails with the file system's own error (not the clean-up's), leaving the file as it was", async () => {
      const dir = await tmpfsDir("64k");
      await writeFile(join(dir, "f.json"), "old");
      remountReadOnly(dir);
      await expect(writeFileAtomic(join(dir, "f.json"), "new")).rejects.toMatchObject({ code: "EROFS" });
      expect(await readFile(join(dir, "f.json"), "utf8")).toBe("old");
    });
  },
);
