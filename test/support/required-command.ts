import { execFileSync } from "node:child_process";

/**
 * Whether a system command the test needs is installed. Under `CI=true` a missing one is an error
 * naming the package to install, never a quiet skip.
 */
export function hasCommand(command: string, pkg: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    if (process.env.CI === "true")
      throw new Error(`${command} is not installed: install the package ${pkg}.`);
    return false;
  }
}
