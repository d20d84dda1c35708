import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { commandPath, SCRIPT } from "../../support/components.ts";

const BIN = fileURLToPath(new URL("../../../bin/agentry.js", import.meta.url));
/** util-linux `script`, which gives agentry a pseudo-terminal. */
const SCRIPT_PATH = commandPath(SCRIPT) ?? "script";
const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

/** `agentry [args]` on a pseudo-terminal (util-linux `script`): type keys, watch the screen. */
export function onTerminal(env: Record<string, string>, cwd: string, args: readonly string[] = []) {
  // No `exec`: the shell stays between script and agentry, as npx's does. Had Ctrl-C reached it as a
  // SIGINT, it would report 130 when agentry exits.
  const command = [process.execPath, BIN, ...args].map(quote).join(" ");
  const child = spawn(SCRIPT_PATH, ["-qec", command, "/dev/null"], {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    screen += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  return {
    screen: () => screen,
    type: (keys: string) => child.stdin.write(keys),
    /** Waits until `text` appears `count` times on the screen. */
    async waitFor(text: string, count = 1, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (screen.split(text).length - 1 < count) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${JSON.stringify(text)} in:\n${screen}`);
        await sleep(20);
      }
    },
    exited,
  };
}
