import type { AgentConfig } from "../../../agent/config.ts";
import { runAgent } from "../../../agent/run.ts";
import { Session } from "../../../agent/session/session.ts";
import { buildSystemPrompt } from "../../../agent/system-prompt.ts";
import { AgentRegistry } from "../../../agents/agent-registry.ts";
import { builtinAgents } from "../../../agents/builtin-agents.ts";
import type { AgentEvent } from "../../../contracts/events.ts";
import type { Outcome } from "../../../contracts/outcome.ts";
import { userText } from "../../../model/messages.ts";
import { DEFAULT_RULES } from "../../../permissions/defaults.ts";
import { attachSubagents } from "../../../subagents/index.ts";
import { builtinTools } from "../../../tools/builtin.ts";
import { nodeOperations } from "../../../tools/node-operations.ts";
import {
  type AgentTreeState,
  emptyAgentTree,
  reduceAgentTree,
  toolArg,
} from "../../../tree/agent-tree-state.ts";
import { DEMO_PROMPT, demoModel } from "./demo-model.ts";
import { writeSampleRepo } from "./sample-repo.ts";
import { estimateTokens } from "./tool-history.ts";

export interface DemoRunOptions {
  /** An empty directory: the sample repository is written here and the run works in it. */
  workspace: string;
  /** How long each scripted reply takes to start (default 200 ms), so a person can watch the tree. */
  paceMs?: number;
  /** Every event of the tree, as it happens (for a renderer). */
  onEvent?: (event: AgentEvent) => void;
  signal?: AbortSignal;
}

export interface DemoChild {
  /** e.g. `main/explore-1` */
  path: string;
  agentType: string;
  description: string;
  status: string;
  turns: number;
  /** Every tool call it made, with the short form of its arguments. */
  toolCalls: Array<{ name: string; arg: string; isError: boolean }>;
  /** Characters of tool output the child's context received. */
  toolResultChars: number;
  inputTokens: number;
  outputTokens: number;
  /** ms since the epoch */
  startedAt: number;
  endedAt: number;
}

/** What delegation saved: the numbers `agentry demo` prints. Tokens are estimated as characters / 4. */
export interface DemoContext {
  childrenToolCalls: number;
  childrenToolResultChars: number;
  childrenToolResultTokens: number;
  /** Input tokens over all of the children's model calls (each call re-sends the child's context). */
  childrenInputTokens: number;
  childrenModelCalls: number;
  /** Characters of the wrapped `task` results in the parent's transcript: all it kept. */
  parentKeptChars: number;
  parentKeptTokens: number;
  /** childrenToolResultTokens / parentKeptTokens */
  ratio: number;
  tokenEstimate: "characters / 4";
}

export interface DemoResult {
  outcome: Outcome;
  answer: string;
  sessionId: string;
  children: DemoChild[];
  /** The most children running at the same moment. */
  maxConcurrentChildren: number;
  context: DemoContext;
  /** The whole tree at the end (totals over it include the parent). */
  tree: AgentTreeState;
}

/**
 * Writes the sample repository and runs the parent on it through the real loop, the real tools and the
 * real subagent runtime, with the demo's scripted model in place of a provider. Never touches the
 * network; resolves when the parent has answered.
 */
export async function runDemo(options: DemoRunOptions): Promise<DemoResult> {
  const { workspace } = options;
  await writeSampleRepo(workspace);
  const model = demoModel({ paceMs: options.paceMs ?? 200 });
  const root: AgentConfig = {
    name: "main",
    model,
    systemPrompt: await buildSystemPrompt({ workspace }),
    tools: builtinTools(),
    workspace,
    ops: nodeOperations,
    agentPath: ["main"],
    depth: 0,
  };
  const { config } = attachSubagents(root, {
    registry: new AgentRegistry({ definitions: builtinAgents() }),
    createModel: () => model,
    baseTools: builtinTools,
    // Non-interactive `default` mode: what the rules do not allow is refused, never asked.
    permission: { rules: DEFAULT_RULES, mode: "default" },
  });
  const session = await Session.create({ workspace, agentName: "main", model: model.id });
  await session.append(userText(DEMO_PROMPT));

  const tally = new ChildTally();
  const run = runAgent(config, session, options.signal);
  for await (const event of run) {
    tally.observe(event);
    options.onEvent?.(event);
  }
  const outcome = await run.outcome;

  const kept = session.messages
    .flatMap((message) => (message.role === "tool_result" ? message.content : []))
    .filter((part) => part.toolName === "task")
    .reduce((sum, part) => sum + part.content.length, 0);
  const children = tally.children();
  const resultChars = children.reduce((sum, child) => sum + child.toolResultChars, 0);
  const context: DemoContext = {
    childrenToolCalls: children.reduce((sum, child) => sum + child.toolCalls.length, 0),
    childrenToolResultChars: resultChars,
    childrenToolResultTokens: estimateTokens(resultChars),
    childrenInputTokens: children.reduce((sum, child) => sum + child.inputTokens, 0),
    childrenModelCalls: children.reduce((sum, child) => sum + child.turns, 0),
    parentKeptChars: kept,
    parentKeptTokens: estimateTokens(kept),
    ratio: kept === 0 ? 0 : Math.round((resultChars / kept) * 10) / 10,
    tokenEstimate: "characters / 4",
  };
  return {
    outcome,
    answer: outcome.text,
    sessionId: session.id,
    children,
    maxConcurrentChildren: tally.maxConcurrent,
    context,
    tree: tally.tree,
  };
}

/** Follows the children through the event stream: their tools, tool output and concurrency. */
class ChildTally {
  tree: AgentTreeState = emptyAgentTree;
  maxConcurrent = 0;
  private running = 0;
  private readonly calls = new Map<string, DemoChild["toolCalls"]>();
  private readonly resultChars = new Map<string, number>();
  private readonly args = new Map<string, string>();

  observe(event: AgentEvent): void {
    this.tree = reduceAgentTree(this.tree, event, Date.now());
    if (event.agentPath.length < 2) return;
    const key = event.agentPath.join("/");
    switch (event.type) {
      case "agent_start":
        this.running++;
        this.maxConcurrent = Math.max(this.maxConcurrent, this.running);
        return;
      case "agent_end":
        this.running--;
        return;
      case "tool_start":
        this.args.set(event.toolCallId, toolArg(event.name, event.args));
        return;
      case "tool_end": {
        const list = this.calls.get(key) ?? [];
        list.push({ name: event.name, arg: this.args.get(event.toolCallId) ?? "", isError: event.isError });
        this.calls.set(key, list);
        return;
      }
      case "tool_results": {
        const chars = event.message.content.reduce((sum, part) => sum + part.content.length, 0);
        this.resultChars.set(key, (this.resultChars.get(key) ?? 0) + chars);
        return;
      }
      default:
        return;
    }
  }

  children(): DemoChild[] {
    return (
      this.tree.nodes
        .filter((node) => node.path.length > 1)
        // In the order the parent asked for them (they may start in any order).
        .sort((a, b) => a.key.localeCompare(b.key, "en", { numeric: true }))
        .map((node) => ({
          path: node.key,
          agentType: node.agentType,
          description: node.description ?? "",
          status: node.status,
          turns: node.turns,
          toolCalls: this.calls.get(node.key) ?? [],
          toolResultChars: this.resultChars.get(node.key) ?? 0,
          inputTokens: node.tokensIn,
          outputTokens: node.tokensOut,
          startedAt: node.startedAt ?? 0,
          endedAt: node.endedAt ?? 0,
        }))
    );
  }
}
