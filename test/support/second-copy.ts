import { copyFile, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Loads a second, separate copy of a dependency-free module of src/ (as when two versions of
 * agentry-ai sit in one dependency tree): the file copied to a temp folder and imported from there.
 */
export async function secondCopyOf<T>(srcRelative: string): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "agentry-copy-"));
  const file = join(dir, srcRelative.split("/").at(-1) ?? "module.ts");
  await copyFile(new URL(`../../src/${srcRelative}`, import.meta.url), file);
  return (await import(pathToFileURL(file).href)) as T;
}
