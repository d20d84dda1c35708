import type { EventOf } from "../../contracts/events.ts";
import { formatDuration } from "../../text/format-duration.ts";
import { oneLine } from "../../text/summarize-args.ts";

/**
 * The stderr line of a hook that blocked something, failed or timed out (one that ran quietly gets
 * none): `⊘ PreToolUse hook blocked Bash: rm -rf is not allowed (.claude/settings.json)`.
 */
export function hookRunText(event: EventOf<"hook_run">): string | undefined {
  const what = event.toolName === undefined ? "" : ` ${event.toolName}`;
  const said = event.message === undefined ? "" : `: ${oneLine(event.message, 200)}`;
  switch (event.result) {
    case "ok":
      return undefined;
    case "blocked":
      return `⊘ ${event.hookEvent} hook blocked${what}${said} (${event.source})`;
    case "timeout":
      return `⚠ ${event.hookEvent} hook timed out after ${formatDuration(event.durationMs)}; the run goes on (${event.source}: ${oneLine(event.command, 80)})`;
    case "error":
      return `⚠ ${event.hookEvent} hook failed${said}; the run goes on (${event.source}: ${oneLine(event.command, 80)})`;
  }
}
