import type { HookContext, Hooks } from "../agent/hooks.ts";
import type { Message, UserMessage } from "../model/messages.ts";
import type { HookAnswer, HookRunner } from "./hook-runner.ts";
import { type AgentFields, postToolUse, preToolUse } from "./tool-events.ts";

/** What the hooks of one tree remember across its agents and turns. */
export class HookSession {
  /** The root's session (`session_id` of every event, a child's included); "" until the root's first call. */
  rootSessionId = "";
  /** Sessions whose start (SessionStart, SubagentStart) was announced, and what their hooks added. */
  readonly started = new Map<string, string[]>();
  /** Sessions whose last stop a Stop/SubagentStop hook blocked: the next stop is `stop_hook_active`. */
  readonly continuedByHook = new Set<string>();
}

/**
 * The root agent's Claude Code hooks: SessionStart at its session's first model call (`startup`, or
 * `resume` for a session that already has answers; `clear` for a new session in the same process), whose
 * context stays in the system prompt of every call of that session; PreToolUse and PostToolUse on its tool
 * calls; Stop when it answers without calling tools (a block gives it the reason and another turn); and
 * PreCompact before a compaction.
 */
export function rootHooks(runner: HookRunner, session: HookSession): Hooks {
  const who = (): AgentFields => ({ sessionId: session.rootSessionId, extra: {} });
  return {
    async beforeModelCall(ctx) {
      const { agent } = ctx;
      if (agent.depth === 0) session.rootSessionId = agent.sessionId;
      if (!session.started.has(agent.sessionId)) {
        const source = resumed(ctx.messages) ? "resume" : session.started.size > 0 ? "clear" : "startup";
        const answers = await runner.run("SessionStart", {
          match: source,
          sessionId: agent.sessionId,
          input: { source, model: ctx.model.id },
          ...eventOptions(ctx),
        });
        session.started.set(agent.sessionId, contexts(answers));
      }
      const sections = session.started.get(agent.sessionId) ?? [];
      return sections.length > 0 ? { systemSections: sections.map(sessionContext) } : undefined;
    },
    beforeToolCall: (ctx) => preToolUse(runner, ctx, who()),
    afterToolCall: (ctx) => postToolUse(runner, ctx, who()),
    async onTurnEnd(ctx) {
      if (ctx.toolCallsMade) return undefined;
      const { sessionId } = ctx.agent;
      const answers = await runner.run("Stop", {
        sessionId,
        input: {
          stop_hook_active: session.continuedByHook.has(sessionId),
          last_assistant_message: ctx.finalText,
        },
        ...eventOptions(ctx),
      });
      return keepGoing(answers, ctx, session, sessionId, "Stop");
    },
    async beforeCompaction(ctx) {
      await runner.run("PreCompact", {
        match: ctx.trigger,
        sessionId: ctx.agent.sessionId,
        input: { trigger: ctx.trigger, custom_instructions: ctx.focus ?? "" },
        ...eventOptions(ctx),
      });
    },
    onRunEnd({ agent }) {
      // A new prompt is a new stop: `stop_hook_active` starts over.
      session.continuedByHook.delete(agent.sessionId);
    },
  };
}

/**
 * A child's hooks: `runner` holds the tree's hooks and the child's own (its agent file's `hooks:`, its
 * `Stop` hooks read as SubagentStop, as Claude Code does). SubagentStart at its first model call (its
 * context stays in the child's system prompt), PreToolUse and PostToolUse on its calls — with
 * `agent_id`, `agent_type` and agentry's `agent_path` —, SubagentStop when it answers (a block gives it
 * the reason and another turn).
 */
export function childHooks(
  runner: HookRunner,
  session: HookSession,
  child: { type: string; path: readonly string[] },
): Hooks {
  const fields = (sessionId: string): Record<string, unknown> => ({
    agent_id: sessionId,
    agent_type: child.type,
    agent_path: child.path.join("/"),
  });
  const who = (ctx: HookContext): AgentFields => ({
    sessionId: session.rootSessionId || ctx.agent.sessionId,
    extra: fields(ctx.agent.sessionId),
  });
  return {
    async beforeModelCall(ctx) {
      const { sessionId } = ctx.agent;
      if (!session.started.has(sessionId)) {
        const answers = await runner.run("SubagentStart", {
          match: child.type,
          sessionId: who(ctx).sessionId,
          input: fields(sessionId),
          ...eventOptions(ctx),
        });
        session.started.set(sessionId, contexts(answers));
      }
      const sections = session.started.get(sessionId) ?? [];
      return sections.length > 0 ? { systemSections: sections.map(sessionContext) } : undefined;
    },
    beforeToolCall: (ctx) => preToolUse(runner, ctx, who(ctx)),
    afterToolCall: (ctx) => postToolUse(runner, ctx, who(ctx)),
    async onTurnEnd(ctx) {
      if (ctx.toolCallsMade) return undefined;
      const { sessionId } = ctx.agent;
      const answers = await runner.run("SubagentStop", {
        match: child.type,
        sessionId: who(ctx).sessionId,
        input: {
          ...fields(sessionId),
          stop_hook_active: session.continuedByHook.has(sessionId),
          agent_transcript_path: runner.transcriptPath(sessionId),
          last_assistant_message: ctx.finalText,
        },
        ...eventOptions(ctx),
      });
      return keepGoing(answers, ctx, session, sessionId, "SubagentStop");
    },
    onRunEnd({ agent }) {
      session.continuedByHook.delete(agent.sessionId);
    },
  };
}

function eventOptions(ctx: HookContext) {
  return { ...(ctx.emit === undefined ? {} : { emit: ctx.emit }), signal: ctx.signal };
}

/** A Stop hook's block: the agent reads the reasons and takes another turn. `continue: false` ends it. */
function keepGoing(
  answers: readonly HookAnswer[],
  ctx: HookContext,
  session: HookSession,
  sessionId: string,
  event: "Stop" | "SubagentStop",
): { inject: UserMessage[] } | undefined {
  const stop = answers.find((answer) => answer.stop !== undefined)?.stop;
  if (stop !== undefined) {
    ctx.stop?.(stop);
    return undefined;
  }
  const reasons = answers.flatMap((answer) => (answer.block === undefined ? [] : [answer.block]));
  if (reasons.length === 0) {
    session.continuedByHook.delete(sessionId);
    return undefined;
  }
  session.continuedByHook.add(sessionId);
  const text = `${event} hook feedback (you were about to stop; do this first):\n${reasons.join("\n")}`;
  return { inject: [{ role: "user", content: [{ type: "text", text }] }] };
}

function contexts(answers: readonly HookAnswer[]): string[] {
  return answers.flatMap((answer) => (answer.context === undefined ? [] : [answer.context]));
}

function sessionContext(text: string): string {
  return `<session-start-hook>\n${text}\n</session-start-hook>`;
}

/** A session that already holds an answer of the model is being resumed, not started. */
function resumed(messages: readonly Message[]): boolean {
  return messages.some((message) => message.role === "assistant");
}
