import { execFileSync } from "node:child_process";
import { constants, readdirSync, statSync } from "node:fs";
import { link, open, stat } from "node:fs/promises";
import { join } from "node:path";
import { tempDir } from "../../support/temp-dir.ts";

/**
 * A lock file that is a named pipe, to put a test's step at an exact point of a lock's protocol: a
 * reader of the lock blocks until the test writes its content into the pipe, so the test acts while
 * the code waits for that read. A second name of the pipe outside the lock's folder (`pipe`) lets the
 * test feed it after the code has moved or removed the lock's own name. Linux only (it looks at
 * /proc/self/fd).
 */
export async function pipeLock(lockPath: string): Promise<{
  pipe: string;
  /**
   * Waits for the next reader of the pipe, runs `beforeWriting` (the other process's step, taken
   * while the code waits for its read), and gives the reader `text` whole.
   */
  feed: (text: string, beforeWriting?: () => Promise<void>) => Promise<void>;
  /** Frees a feed still waiting for a reader (when the code under test did not read again). */
  unblock: () => Promise<void>;
}> {
  const pipe = join(await tempDir(), "pipe");
  execFileSync("mkfifo", [pipe]);
  await link(pipe, lockPath);
  const { dev, ino } = await stat(pipe);
  return {
    pipe,
    async feed(text, beforeWriting) {
      // The previous reader may not have closed the pipe yet (it saw the end of the text, and closes
      // next): opened now, the write would go to that reader. Only a reader that has a writer holds the
      // pipe open, so once no descriptor refers to it, the next open waits for the code's next read.
      while (openedHere(dev, ino)) await new Promise((resolve) => setImmediate(resolve));
      // Opening a pipe to write blocks until a reader opens it: when this resolves, the code is reading.
      const handle = await open(pipe, constants.O_WRONLY);
      try {
        await beforeWriting?.();
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
    },
    async unblock() {
      await (await open(pipe, constants.O_RDONLY | constants.O_NONBLOCK)).close();
    },
  };
}

function openedHere(dev: number, ino: number): boolean {
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const info = statSync(`/proc/self/fd/${fd}`);
      if (info.ino === ino && info.dev === dev) return true;
    } catch {
      // Closed while we looked.
    }
  }
  return false;
}
