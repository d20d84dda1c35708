import { spawn } from "node:child_process";
import { once } from "node:events";

/** The pid of a process that has exited and been reaped: a dead owner. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await once(child, "exit");
  return child.pid!;
}
