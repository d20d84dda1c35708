import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "./temp-dir.ts";

/**
 * Loads a second, separate copy of a dependency-free module of src/ (as when two versions of
 * agentry-ai sit in one dependency tree): the file copied to a temp folder and imported from there.
 */
export async function secondCopyOf<T>(srcRelative: string): Promise<T> {
  const dir = await tempDir("agentry-copy-");
  const file = join(dir, srcRelative.split("/").at(-1) ?? "module.ts");
  await copyFile(new URL(`../../src/${srcRelative}`, import.meta.url), file);
  return (await import(pathToFileURL(file).href)) as T;
}
