import type { SandboxProfile } from "../../sandbox/policy.ts";
import type { ExecResult } from "../operations.ts";

/** Output that says a write or a connection was refused: the sandbox is the likely cause. */
const BLOCKED_WRITE = /Read-only file system|EROFS|Device or resource busy/;
const BLOCKED_NETWORK =
  /Could not resolve host|Temporary failure in name resolution|Network is unreachable|getaddrinfo|ENOTFOUND|EAI_AGAIN|ENETUNREACH|Name or service not known/;

/**
 * Lines appended to a sandboxed command's result so the model understands a refusal instead of
 * retrying: protected paths the command created and agentry removed, and a failure that looks like
 * the sandbox's doing, with what it may do about it.
 */
export function sandboxNotes(
  result: ExecResult,
  profile: SandboxProfile | undefined,
  mayLeave: boolean,
): string {
  const notes: string[] = [];
  const removed = result.removedPaths ?? [];
  if (removed.length > 0) {
    notes.push(
      `agentry removed ${removed.join(", ")}, which this command created: commands may not create protected paths ` +
        "(git's config and hooks, agentry's and other agents' settings, MCP and editor settings). Report the change you need instead.",
    );
  }
  if (profile !== undefined && result.exitCode !== 0) {
    const leave = mayLeave
      ? " If the task really needs it, run the command again with outside_sandbox: true (the user must approve)."
      : "";
    if (BLOCKED_WRITE.test(result.output)) {
      const where =
        profile === "read-only"
          ? "this command ran with a read-only view of the files (this agent, or this command as the analysis reads it, may not write)"
          : "outside the workspace, and protected paths such as .git/config and .agentry/, are read-only";
      notes.push(`[sandbox] ${where}; /tmp is private and writable.${leave}`);
    }
    if (BLOCKED_NETWORK.test(result.output)) {
      notes.push(
        `[sandbox] commands have no network unless the config allows hosts (sandbox.network.allowedHosts).${leave}`,
      );
    }
  }
  return notes.map((note) => `\n\n${note}`).join("");
}
