import type { EventBody } from "../../agent/emitter.ts";
import type { Hooks } from "../../agent/hooks.ts";
import type { AgentEvent } from "../../contracts/events.ts";
import { childHooks, HookSession, rootHooks } from "../../hooks/claude-hooks.ts";
import { HookRunner } from "../../hooks/hook-runner.ts";
import { type HookCommand, readHookSettings } from "../../hooks/hook-settings.ts";
import { notifyingAsk, permissionRequestApprover } from "../../hooks/permission-events.ts";
import { type PromptVerdict, sessionEnd, userPromptSubmit } from "../../hooks/session-events.ts";
import type { Approver, AskHandler } from "../../permissions/gate.ts";
import type { ChildHooksFactory } from "../../subagents/index.ts";

/** Claude Code's hooks wired into one run or chat session (`wireHooks`). */
export interface WiredHooks {
  /** First among the root agent's hooks. */
  root: Hooks;
  /** Each child's: the tree's hooks plus its agent file's (its `Stop` read as SubagentStop). */
  child: ChildHooksFactory;
  /** PermissionRequest hooks, for the permission gate. */
  approve: Approver;
  /** Notification (`permission_prompt`) before the person is asked. */
  notifying(onAsk: AskHandler): AskHandler;
  /** UserPromptSubmit for a prompt the person typed, before it joins the session. */
  submit(prompt: string, sessionId: string, signal?: AbortSignal): Promise<PromptVerdict>;
  /** SessionEnd. */
  end(sessionId: string, reason: "clear" | "prompt_input_exit" | "other"): Promise<void>;
  /** PreCompact for `/compact` (`manual`; automatic compaction fires it through the root's hooks). */
  preCompact(sessionId: string, focus: string): Promise<void>;
  /** Where the events of hooks outside an agent's step go (the run's renderer); replaced per run. */
  setSink(sink: ((event: AgentEvent) => void) | undefined): void;
}

export interface WireHooksOptions {
  /** The hooks of the settings files, as the folder's trust lets them apply (`readProject`). */
  hooks: readonly HookCommand[];
  workspace: string;
  env: NodeJS.ProcessEnv;
  permissionMode: string;
}

/**
 * The run's Claude Code hooks: one runner for the root (its settings files' hooks) whose children add
 * their agent files' own. Hooks run as the user's commands in the workspace, with `CLAUDE_PROJECT_DIR`
 * and `AGENTRY_PROJECT_DIR` set (docs/hooks.md).
 */
export function wireHooks(options: WireHooksOptions): WiredHooks {
  const runner = new HookRunner(options.hooks, {
    workspace: options.workspace,
    env: options.env,
    permissionMode: options.permissionMode,
  });
  const session = new HookSession();
  let sink: ((event: AgentEvent) => void) | undefined;
  const emitAs = (event: EventBody, agentPath: readonly string[]) =>
    sink?.({ ...event, agentPath: [...agentPath] } as AgentEvent);
  const rootEmit = (event: EventBody) => emitAs(event, ["main"]);
  return {
    root: rootHooks(runner, session),
    child: ({ definition, path }) => {
      const own =
        definition.hooks === undefined
          ? []
          : readHookSettings(definition.hooks, {
              label: definition.source.path ?? `agent "${definition.name}"`,
              scope: "agent",
            }).hooks.map((hook) =>
              hook.event === "Stop" ? { ...hook, event: "SubagentStop" as const } : hook,
            );
      const tree = runner.with(own);
      return tree.hooks.length === 0 ? [] : [childHooks(tree, session, { type: definition.name, path })];
    },
    approve: permissionRequestApprover(runner, session, emitAs),
    notifying: (onAsk) => notifyingAsk(onAsk, runner, session, emitAs),
    submit: (prompt, sessionId, signal) =>
      userPromptSubmit(runner, prompt, sessionId, {
        emit: rootEmit,
        ...(signal === undefined ? {} : { signal }),
      }),
    end: (sessionId, reason) => sessionEnd(runner, sessionId, reason, rootEmit),
    preCompact: async (sessionId, focus) => {
      await runner.run("PreCompact", {
        match: "manual",
        sessionId,
        input: { trigger: "manual", custom_instructions: focus },
        emit: rootEmit,
      });
    },
    setSink: (next) => {
      sink = next;
    },
  };
}
