import type { AgentConfig } from "../agent/config.ts";
import type { Hooks } from "../agent/hooks.ts";
import { runAgentLoop } from "../agent/loop.ts";
import type { AgentEvent } from "../contracts/events.ts";
import type { Outcome } from "../contracts/outcome.ts";
import { addUsage, emptyUsage, type UserMessage, userMessage, userText } from "../model/messages.ts";
import { openChildMcp } from "./child-mcp.ts";
import type { ChildWorkspace, WorkspaceReport } from "./child-workspace.ts";
import type { Activation, ActivationInput, ActivationResult, ChildExecutor } from "./executor.ts";
import type { LocalChild } from "./local-child.ts";

/**
 * Runs a child's loop in this process: again with the messages sent to it when they arrive as it
 * ends or when it is interrupted, with the MCP servers its definition declares inline, in its
 * workspace (reopened before, finished after each activation). `warn` takes what the child can do
 * without (an MCP server that did not start).
 */
export function inProcessExecutor(child: LocalChild, warn: (message: string) => void): ChildExecutor {
  return {
    kind: "in-process",
    start: (input) => new InProcessActivation(child, input, warn),
    close: () => child.session.close(),
  };
}

class InProcessActivation implements Activation {
  readonly done: Promise<ActivationResult>;
  private readonly mailbox: UserMessage[];
  private takesMessages = true;
  private interrupted = false;
  private step: AbortController | undefined;
  private readonly startedAt = Date.now();
  private readonly child: LocalChild;

  constructor(child: LocalChild, input: ActivationInput, warn: (message: string) => void) {
    this.child = child;
    this.mailbox = [...input.messages];
    this.done = this.run(input, warn);
  }

  send(message: UserMessage): boolean {
    if (!this.takesMessages) return false;
    this.mailbox.push(message);
    return true;
  }

  interrupt(): void {
    if (!this.step || this.step.signal.aborted) return;
    this.interrupted = true;
    this.step.abort("interrupted by a message from its parent (task_send)");
  }

  private async run(input: ActivationInput, warn: (message: string) => void): Promise<ActivationResult> {
    let outcome: Outcome;
    try {
      await this.child.workspace.reopen();
      if (input.prompt !== undefined)
        await this.child.session.append(userMessage(input.prompt, input.images));
      outcome = await this.withOwnMcp(input.signal, warn, (config) => this.loop(config, input));
    } catch (error) {
      outcome = {
        status: "error",
        error: `internal error: ${messageOf(error)}`,
        text: "",
        turns: 0,
        usage: emptyUsage(),
        durationMs: Date.now() - this.startedAt,
        sessionId: this.child.session.id,
      };
    }
    this.takesMessages = false;
    const workspace = await finishWorkspace(this.child.workspace);
    return {
      outcome,
      ...(workspace.branch === undefined ? {} : { branch: workspace.branch }),
      ...(workspace.note === undefined ? {} : { workspaceNote: workspace.note }),
    };
  }

  /** Runs `work` with the tools of the MCP servers the definition declares inline, then stops them. */
  private async withOwnMcp(
    signal: AbortSignal,
    warn: (message: string) => void,
    work: (config: AgentConfig) => Promise<Outcome>,
  ): Promise<Outcome> {
    const base: AgentConfig = {
      ...this.child.config,
      hooks: [mailboxHooks(this.mailbox), ...(this.child.config.hooks ?? [])],
    };
    const mcp = await openChildMcp(this.child, signal, warn);
    if (!mcp) return work(base);
    const own = new Set(mcp.tools.map((tool) => tool.name));
    try {
      return await work({
        ...base,
        tools: [...base.tools.filter((tool) => !own.has(tool.name)), ...mcp.tools],
      });
    } finally {
      await mcp.close();
    }
  }

  /** Runs the loop until an outcome no queued message (or interruption) continues. */
  private async loop(config: AgentConfig, input: ActivationInput): Promise<Outcome> {
    const { signal, emit } = input;
    const { session } = this.child;
    const path = config.agentPath ?? [];
    let usage = emptyUsage();
    let turns = 0;
    while (true) {
      const step = new AbortController();
      this.step = step;
      const stop = () => step.abort(signal.reason);
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
      let outcome: Outcome;
      try {
        outcome = await runAgentLoop(config, session, emit, step.signal);
      } finally {
        signal.removeEventListener("abort", stop);
        this.step = undefined;
      }
      usage = addUsage(usage, outcome.usage);
      turns += outcome.turns;
      const interrupted = this.interrupted && outcome.status === "aborted";
      this.interrupted = false;
      const more = this.mailbox.length > 0 && (outcome.status === "completed" || interrupted);
      if (signal.aborted || !(more || interrupted)) {
        this.takesMessages = false;
        return { ...outcome, usage, turns, durationMs: Date.now() - this.startedAt };
      }
      const messages = this.mailbox.splice(0);
      // An interruption whose message already reached the child still needs a user turn to answer.
      if (messages.length === 0 && session.messages.at(-1)?.role === "assistant")
        messages.push(userText("(Your parent interrupted you. Continue.)"));
      for (const message of messages) {
        await session.append(message);
        emit({ type: "user_message", agentPath: path, message } satisfies AgentEvent);
      }
    }
  }
}

/** Delivers sent messages at the child's next model call, or keeps it going when it would end. */
function mailboxHooks(mailbox: UserMessage[]): Hooks {
  return {
    beforeModelCall: () => (mailbox.length > 0 ? { inject: mailbox.splice(0) } : undefined),
    onTurnEnd: ({ toolCallsMade }) =>
      !toolCallsMade && mailbox.length > 0 ? { inject: mailbox.splice(0) } : undefined,
  };
}

async function finishWorkspace(workspace: ChildWorkspace): Promise<WorkspaceReport> {
  try {
    return await workspace.finish();
  } catch (error) {
    return {
      note: `Its ${workspace.mode} workspace at ${workspace.path} could not be cleaned up: ${messageOf(error)}`,
    };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
