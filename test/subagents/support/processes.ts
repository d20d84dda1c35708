import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(20);
  }
  return check();
}

/** The pid a `bash` tool call wrote with `echo $$ > file`, once it is there. */
export async function pidFrom(file: string, timeoutMs = 10_000): Promise<number> {
  const written = () => existsSync(file) && /^\d+\s*$/.test(readFileSync(file, "utf8"));
  if (!(await until(written, timeoutMs))) throw new Error(`no pid in ${file} after ${timeoutMs} ms`);
  return Number(readFileSync(file, "utf8").trim());
}
