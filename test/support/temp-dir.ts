import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, onTestFinished, TestRunner } from "vitest";

/** Folders made outside a running test (in `beforeAll` or a `describe` body): removed when the file ends. */
const untilFileEnds = new Set<string>();
try {
  afterAll(() => removeAll(untilFileEnds));
} catch {
  // Imported outside a test file (a helper process a test starts loads a harness): nothing to register.
}

/**
 * A fresh, empty folder under the system temp dir, as a real path (on macOS `/tmp` is a symlink, and
 * tools compare real paths). Nobody has to remove it: made inside a test or its `beforeEach`, it goes
 * when that test finishes, pass or fail; made anywhere else, when the test file ends.
 * Set `AGENTRY_KEEP_TEMP=1` to keep every folder for a look after a failure.
 */
export async function tempDir(prefix = "agentry-test-"): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  removeLater(dir);
  return dir;
}

/**
 * Removes a folder someone else made (the code under test, a child process) as if `tempDir` had made
 * it. Same timing as `tempDir`.
 */
export function removeLater(path: string): void {
  if (process.env.AGENTRY_KEEP_TEMP === "1") return;
  if (TestRunner.getCurrentTest() === undefined) untilFileEnds.add(path);
  else onTestFinished(() => remove(path));
}

async function removeAll(paths: Set<string>): Promise<void> {
  const all = [...paths];
  paths.clear();
  await Promise.all(all.map(remove));
}

function remove(path: string): Promise<void> {
  // maxRetries: a process the test killed may still be closing files in it (EBUSY, ENOTEMPTY).
  return rm(path, { recursive: true, force: true, maxRetries: 3 });
}
