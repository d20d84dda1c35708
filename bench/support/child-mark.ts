import { readFileSync } from "node:fs";

/** The first line of the harness preamble every child's system prompt starts with. */
export const CHILD_MARK =
  readFileSync(new URL("../../src/subagents/child/child-preamble.md", import.meta.url), "utf8").split(
    "\n",
  )[0] ?? "";

/** Whether a system prompt is a subagent's. */
export function isChildSystem(system: string): boolean {
  return CHILD_MARK !== "" && system.includes(CHILD_MARK);
}
