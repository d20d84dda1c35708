import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh real directory (symlinks resolved, as the file tools require) and its removal. */
export async function tempDir(label: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), `agentry-bench-${label}-`)));
  return { dir, remove: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }) };
}
