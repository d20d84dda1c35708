import { evaluate } from "./evaluate.ts";
import { READ_ONLY_BASH_RULES } from "./read-only-bash-rules.ts";

/** How asks are resolved when no one (or not only someone) answers them. Rules always come first. */
export const PERMISSION_MODES = ["default", "accept-edits", "bypass", "plan"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** What a mode does with an ask: settle it, or hand it to the user (or deny when there is none). */
export type ModeDecision = { kind: "allow" } | { kind: "deny"; reason: string } | { kind: "prompt" };

/**
 * Modes only decide what the rules leave open (`ask`); an explicit deny rule holds in every mode
 * and an explicit allow is never taken back.
 * - `default`: prompt.
 * - `accept-edits`: `edit` is allowed; everything else prompts.
 * - `bypass`: everything is allowed.
 * - `plan`: `edit` and `bash` are denied unless every asked command is read-only, and leaving the
 *   sandbox (`unsandboxed`) is denied; others prompt.
 */
export function decideAsk(
  mode: PermissionMode,
  permission: string,
  askedPatterns: readonly string[],
): ModeDecision {
  switch (mode) {
    case "bypass":
      return { kind: "allow" };
    case "accept-edits":
      return permission === "edit" ? { kind: "allow" } : { kind: "prompt" };
    case "plan":
      if (
        permission === "bash" &&
        askedPatterns.every((pattern) => evaluate(READ_ONLY_BASH_RULES, "bash", pattern) === "allow")
      ) {
        return { kind: "allow" };
      }
      if (permission === "unsandboxed") {
        return {
          kind: "deny",
          reason: "plan mode (--permission-mode plan) runs commands in a read-only sandbox only",
        };
      }
      if (permission === "edit" || permission === "bash") {
        return {
          kind: "deny",
          reason: `plan mode (--permission-mode plan) does not allow ${permission === "edit" ? "editing files" : "commands that are not read-only"}; describe the change in your plan instead`,
        };
      }
      return { kind: "prompt" };
    case "default":
      return { kind: "prompt" };
  }
}
