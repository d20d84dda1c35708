import type { AgentConfig } from "../../agent/config.ts";
import { runAgentLoop } from "../../agent/loop.ts";
import type { AgentEvent } from "../../contracts/events.ts";
import type { Outcome } from "../../contracts/outcome.ts";
import { addUsage, emptyUsage, type UserMessage, userMessage, userText } from "../../model/messages.ts";
import { errorMessage } from "../../text/error-message.ts";
import { openChildMcp } from "../child/child-mcp.ts";
import type { ChildWorkspace, WorkspaceReport } from "../child/child-workspace.ts";
import type { LocalChild } from "../child/local-child.ts";
import { activationOutcome, GO_ON_AFTER_INTERRUPT, InterruptibleStep, Mailbox } from "./activation-kit.ts";
import type { Activation, ActivationInput, ActivationResult, ChildExecutor } from "./executor.ts";

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
  private readonly mailbox: Mailbox;
  private readonly step = new InterruptibleStep();
  private readonly startedAt = Date.now();
  private readonly child: LocalChild;

  constructor(child: LocalChild, input: ActivationInput, warn: (message: string) => void) {
    this.child = child;
    this.mailbox = new Mailbox(input.messages);
    this.done = this.run(input, warn);
  }

  send(message: UserMessage): boolean {
    return this.mailbox.push(message);
  }

  interrupt(): void {
    this.step.interrupt();
  }

  private async run(input: ActivationInput, warn: (message: string) => void): Promise<ActivationResult> {
    let outcome: Outcome;
    try {
      await this.child.workspace.reopen();
      if (input.prompt !== undefined)
        await this.child.session.append(userMessage(input.prompt, input.images));
      outcome = await this.withOwnMcp(input.signal, warn, (config) => this.loop(config, input));
    } catch (error) {
      outcome = activationOutcome(
        { status: "error", error: `internal error: ${errorMessage(error)}` },
        { sessionId: this.child.session.id, startedAt: this.startedAt },
      );
    }
    this.mailbox.close();
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
      hooks: [this.mailbox.hooks(), ...(this.child.config.hooks ?? [])],
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
      const outcome = await this.step.run(signal, (step) => runAgentLoop(config, session, emit, step));
      usage = addUsage(usage, outcome.usage);
      turns += outcome.turns;
      const interrupted = this.step.takeInterrupted() && outcome.status === "aborted";
      const more = this.mailbox.size > 0 && (outcome.status === "completed" || interrupted);
      if (signal.aborted || !(more || interrupted)) {
        this.mailbox.close();
        return { ...outcome, usage, turns, durationMs: Date.now() - this.startedAt };
      }
      const messages = this.mailbox.take();
      // An interruption whose message already reached the child still needs a user turn to answer.
      if (messages.length === 0 && session.messages.at(-1)?.role === "assistant")
        messages.push(userText(GO_ON_AFTER_INTERRUPT));
      for (const message of messages) {
        await session.append(message);
        emit({ type: "user_message", agentPath: path, message } satisfies AgentEvent);
      }
    }
  }
}

async function finishWorkspace(workspace: ChildWorkspace): Promise<WorkspaceReport> {
  try {
    return await workspace.finish();
  } catch (error) {
    return {
      note: `Its ${workspace.mode} workspace at ${workspace.path} could not be cleaned up: ${errorMessage(error)}`,
    };
  }
}
