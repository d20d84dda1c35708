import { AgentryError } from "../errors/agentry-error.ts";
import { type HookEventName, isHookEvent, UNMATCHED_EVENTS, UNSUPPORTED_EVENTS } from "./hook-events.ts";
import { compileMatcher } from "./matcher.ts";

/** Claude Code's default: a hook command gets 60 seconds, then it is killed and the run goes on. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** Where a hook was configured, for messages and `agentry config`. */
export interface HookSource {
  /** `.claude/settings.json`, `~/.claude/settings.json`, `agentry.json`, `.claude/agents/x.md` … */
  label: string;
  /** A repository's file (runs only in a trusted folder), the user's own, or an agent file's (that child only). */
  scope: "user" | "project" | "agent";
}

/** One command hook, as it runs. */
export interface HookCommand {
  event: HookEventName;
  /** As written (absent: every occurrence). */
  matcher?: string;
  matches: (value: string) => boolean;
  command: string;
  timeoutMs: number;
  /** Claude Code's `async: true`: started, never waited for, its result ignored. */
  async: boolean;
  source: HookSource;
}

/** A `hooks` value that is not in Claude Code's shape: the file is an error, as a bad config key is. */
export class HookSettingsError extends AgentryError {
  override readonly name = "HookSettingsError";
  readonly kind = "user";
}

export interface ReadHooks {
  hooks: HookCommand[];
  /** Hooks that are valid for Claude Code but do not run here (another type, an event agentry lacks). */
  warnings: string[];
}

/**
 * Reads a `hooks` value — `{ <Event>: [{ matcher?, hooks: [{ type: "command", command, timeout? }] }] }`,
 * the same in Claude Code's settings files, agentry's config and an agent file's front matter. A value
 * in another shape throws `HookSettingsError` naming the place: a guard hook that silently did not run
 * would give false safety. Hooks Claude Code has and agentry cannot run (`prompt`, `http` and `agent`
 * hooks, events it does not fire, a matcher that is not a regular expression) are warnings.
 */
export function readHookSettings(value: unknown, source: HookSource): ReadHooks {
  const fail = (where: string, problem: string): never => {
    throw new HookSettingsError(`${source.label}: hooks${where} ${problem}`);
  };
  const hooks: HookCommand[] = [];
  const warnings: string[] = [];
  if (value === undefined) return { hooks, warnings };
  if (!isObject(value)) return fail("", "must map event names (PreToolUse, Stop …) to lists of matchers");
  for (const [event, groups] of Object.entries(value)) {
    // Another tool's hooks (claude-flow's `pre:`/`post:` scripts …) are not Claude Code's: said, not run.
    if (!isHookEvent(event)) {
      warnings.push(
        `${source.label}: hooks.${event} ${UNSUPPORTED_EVENTS.has(event) ? "is an event agentry does not fire" : "is not a hook event"}; its hooks do not run`,
      );
      continue;
    }
    if (!Array.isArray(groups))
      return fail(`.${event}`, 'must be a list of { "matcher": …, "hooks": [ … ] }');
    for (const [index, group] of groups.entries()) {
      const where = `.${event}[${index}]`;
      if (!isObject(group) || !Array.isArray(group.hooks))
        return fail(where, 'must be { "matcher": "…", "hooks": [ { "type": "command", "command": "…" } ] }');
      const matcher = group.matcher;
      if (matcher !== undefined && typeof matcher !== "string")
        return fail(`${where}.matcher`, "must be a string");
      const matches = compileMatcher(UNMATCHED_EVENTS.has(event) ? undefined : matcher);
      if (matches === undefined) {
        warnings.push(
          `${source.label}: hooks${where}.matcher "${matcher}" is not a valid regular expression; its hooks do not run`,
        );
        continue;
      }
      for (const [at, hook] of group.hooks.entries()) {
        const place = `${where}.hooks[${at}]`;
        const command = readCommandHook(hook, place, fail);
        if (typeof command === "string") {
          warnings.push(`${source.label}: hooks${place} ${command}; it does not run`);
          continue;
        }
        hooks.push({
          event,
          ...(typeof matcher === "string" && matcher.trim() !== "" ? { matcher } : {}),
          matches,
          command: command.command,
          timeoutMs: (command.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000,
          async: command.async,
          source,
        });
      }
    }
  }
  return { hooks, warnings };
}

/** A command hook's fields, or why a hook of another kind does not run. */
function readCommandHook(
  hook: unknown,
  place: string,
  fail: (where: string, problem: string) => never,
): { command: string; timeout?: number; async: boolean } | string {
  if (!isObject(hook) || typeof hook.type !== "string")
    return fail(place, 'must be { "type": "command", "command": "…" }');
  if (hook.type !== "command") return `is a "${hook.type}" hook (agentry runs "command" hooks only)`;
  if (typeof hook.command !== "string" || hook.command.trim() === "")
    return fail(`${place}.command`, "must be the command to run");
  const timeout = hook.timeout;
  if (timeout !== undefined && (typeof timeout !== "number" || !(timeout > 0)))
    return fail(`${place}.timeout`, "must be a positive number of seconds");
  return {
    command: hook.command,
    ...(timeout === undefined ? {} : { timeout }),
    async: hook.async === true,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
