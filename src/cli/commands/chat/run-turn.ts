import type { AgentConfig } from "../../../agent/config.ts";
import { runAgent } from "../../../agent/run.ts";
import type { Session } from "../../../agent/session/session.ts";
import type { AgentEvent } from "../../../contracts/events.ts";
import type { UserMessage } from "../../../model/messages.ts";
import type { RenderTarget } from "../../render/renderer.ts";
import { type RunResult, runResult } from "../../render/result-object.ts";
import { textRenderer } from "../../render/text-renderer.ts";
import { TreeUsage } from "../../render/tree-usage.ts";
import { type AgentTreeRenderer, withAgentTree } from "../../render/with-agent-tree.ts";

export interface TurnOptions {
  /** The root agent with its subagents, the same for every turn. */
  config: AgentConfig;
  session: Session;
  /** Aborted by Ctrl-C: the loop stops, tools kill their process groups, children are cancelled. */
  signal: AbortSignal;
  target: RenderTarget;
  /** Sees every event of the turn's tree (tracing). */
  observe?: (event: AgentEvent) => void;
  /** Told of the turn's renderer, so a permission prompt can pause it. */
  onRenderer?: (renderer: AgentTreeRenderer) => void;
}

/**
 * One user turn of the interactive mode: appends the message (its mentions already inlined) to the
 * session and runs the root agent (and whatever children it starts) until it answers, rendered as
 * `agentry run` renders text. Returns the turn's result, with the usage of the whole tree.
 */
export async function runTurn(message: UserMessage, options: TurnOptions): Promise<RunResult> {
  const renderer = withAgentTree((inner) => textRenderer(inner, { reportOutcome: false }), options.target);
  const tree = new TreeUsage();
  options.onRenderer?.(renderer);
  await options.session.append(message);
  const run = runAgent(options.config, options.session, options.signal);
  for await (const event of run) {
    renderer.event(event);
    tree.add(event);
    options.observe?.(event);
  }
  const outcome = await run.outcome;
  renderer.finish(outcome);
  return runResult(outcome, tree);
}
