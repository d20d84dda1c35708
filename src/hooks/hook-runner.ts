import { join } from "node:path";
import type { EventBody } from "../agent/emitter.ts";
import type { HookRunResult } from "../contracts/events.ts";
import type { HookEventName } from "./hook-events.ts";
import { type HookReply, readHookReply } from "./hook-reply.ts";
import type { HookCommand } from "./hook-settings.ts";
import { runHookCommand } from "./run-hook-command.ts";

/** Claude Code's names of agentry's permission modes, for `permission_mode`. */
const CLAUDE_MODES: Readonly<Record<string, string>> = {
  default: "default",
  "accept-edits": "acceptEdits",
  bypass: "bypassPermissions",
  plan: "plan",
};

export interface HookRunnerOptions {
  /** The workspace: every hook runs there, and it is `CLAUDE_PROJECT_DIR` and `AGENTRY_PROJECT_DIR`. */
  workspace: string;
  /** The environment hooks inherit (agentry's own: hooks run as the user's commands). */
  env: NodeJS.ProcessEnv;
  /** agentry's permission mode of the run (`permission_mode`, in Claude Code's words). */
  permissionMode: string;
}

/** One firing of an event. */
export interface HookFiring {
  /** Compared with each hook's matcher (a tool's name, an agent's type, a session's source …). */
  match?: string;
  /** The event's own fields (`tool_name`, `prompt`, `stop_hook_active` …); the common ones are added. */
  input: Record<string, unknown>;
  /** The session the event belongs to (`session_id`, `transcript_path`). */
  sessionId: string;
  /** Where `hook_run` events go (the agent's stream); none: not reported. */
  emit?: (event: EventBody) => void;
  toolCallId?: string;
  toolName?: string;
  signal?: AbortSignal;
}

/** A hook's reply with the hook it came from. */
export interface HookAnswer extends HookReply {
  hook: HookCommand;
}

/**
 * Runs Claude Code command hooks: for one firing, every hook of the event whose matcher takes it, at
 * once, each identical command once; each gets the event as JSON on stdin (Claude Code's field names:
 * `session_id`, `transcript_path`, `cwd`, `permission_mode`, `hook_event_name`, then the event's own) and
 * its answer is read as Claude Code reads it (`readHookReply`). Each run is a `hook_run` event.
 */
export class HookRunner {
  readonly hooks: readonly HookCommand[];
  private readonly options: HookRunnerOptions;

  constructor(hooks: readonly HookCommand[], options: HookRunnerOptions) {
    this.hooks = hooks;
    this.options = options;
  }

  /** This runner with more hooks (an agent file's, for that child). */
  with(extra: readonly HookCommand[]): HookRunner {
    return extra.length === 0 ? this : new HookRunner([...this.hooks, ...extra], this.options);
  }

  /** Whether any hook listens to `event` (for `match`, when given). */
  has(event: HookEventName, match?: string): boolean {
    return this.select(event, match).length > 0;
  }

  get workspace(): string {
    return this.options.workspace;
  }

  transcriptPath(sessionId: string): string {
    return join(this.options.workspace, ".agentry", "sessions", `${sessionId}.jsonl`);
  }

  async run(event: HookEventName, firing: HookFiring): Promise<HookAnswer[]> {
    const selected = this.select(event, firing.match);
    if (selected.length === 0) return [];
    const stdin = JSON.stringify({
      session_id: firing.sessionId,
      transcript_path: this.transcriptPath(firing.sessionId),
      cwd: this.options.workspace,
      permission_mode: CLAUDE_MODES[this.options.permissionMode] ?? this.options.permissionMode,
      hook_event_name: event,
      ...firing.input,
    });
    const env = {
      ...this.options.env,
      CLAUDE_PROJECT_DIR: this.options.workspace,
      AGENTRY_PROJECT_DIR: this.options.workspace,
    };
    const answers = await Promise.all(
      selected.map(async (hook): Promise<HookAnswer | undefined> => {
        const running = runHookCommand(hook.command, {
          cwd: this.options.workspace,
          env,
          stdin,
          timeoutMs: hook.timeoutMs,
          ...(firing.signal === undefined ? {} : { signal: firing.signal }),
        });
        if (hook.async) {
          // Claude Code's async hooks run beside the agent and decide nothing.
          void running.then((run) =>
            report(event, hook, readHookReply(event, run, hook.timeoutMs), run, firing),
          );
          return undefined;
        }
        const run = await running;
        const reply = readHookReply(event, run, hook.timeoutMs);
        report(event, hook, reply, run, firing);
        return { ...reply, hook };
      }),
    );
    return answers.filter((answer): answer is HookAnswer => answer !== undefined);
  }

  private select(event: HookEventName, match: string | undefined): HookCommand[] {
    const seen = new Set<string>();
    return this.hooks.filter((hook) => {
      if (hook.event !== event || (match !== undefined && !hook.matches(match))) return false;
      // Identical commands run once per firing, whichever files list them.
      if (seen.has(hook.command)) return false;
      seen.add(hook.command);
      return true;
    });
  }
}

function report(
  event: HookEventName,
  hook: HookCommand,
  reply: HookReply,
  run: { exitCode: number | null; timedOut: boolean; durationMs: number },
  firing: HookFiring,
): void {
  if (firing.emit === undefined) return;
  const blocked =
    reply.block !== undefined || reply.stop !== undefined || reply.permission?.decision === "deny";
  const result: HookRunResult = run.timedOut
    ? "timeout"
    : reply.error !== undefined
      ? "error"
      : blocked
        ? "blocked"
        : "ok";
  const said = reply.error ?? reply.block ?? reply.stop ?? reply.permission?.reason ?? reply.systemMessage;
  firing.emit({
    type: "hook_run",
    hookEvent: event,
    command: hook.command,
    source: hook.source.label,
    result,
    ...(run.exitCode === null ? {} : { exitCode: run.exitCode }),
    ...(said === undefined ? {} : { message: said.length > 500 ? `${said.slice(0, 500)}…` : said }),
    ...(firing.toolCallId === undefined ? {} : { toolCallId: firing.toolCallId }),
    ...(firing.toolName === undefined ? {} : { toolName: firing.toolName }),
    durationMs: run.durationMs,
  });
}
