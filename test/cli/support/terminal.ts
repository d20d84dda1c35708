import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { cliBin } from "../../support/cli-bin.ts";
import { commandPath, SCRIPT } from "../../support/components.ts";
import { scaled } from "../../support/time-scale.ts";

/** util-linux `script`, which gives agentry a pseudo-terminal. */
const SCRIPT_PATH = commandPath(SCRIPT) ?? "script";
const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

/** A running `agentry` on a pseudo-terminal: type keys, watch the screen (stdout and stderr together). */
export interface Terminal {
  screen(): string;
  type(keys: string): void;
  /** Waits until `text` appears `count` times on the screen; the bound only catches a hang. */
  waitFor(text: string, count?: number): Promise<void>;
  /** The exit code. */
  exited: Promise<number | null>;
}

/** Starts `agentry <args>` on a pseudo-terminal (util-linux `script`); use inside `describeWith(SCRIPT, …)`. */
export function onTerminal(args: string[], env: Record<string, string>, cwd: string): Terminal {
  const command = [process.execPath, cliBin(), ...args].map(quote).join(" ");
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
    type: (keys) => {
      child.stdin.write(keys);
    },
    async waitFor(text, count = 1) {
      const deadline = Date.now() + scaled(20_000);
      while (screen.split(text).length - 1 < count) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${JSON.stringify(text)} in:\n${screen}`);
        await sleep(20);
      }
    },
    exited,
  };
}
