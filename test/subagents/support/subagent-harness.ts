import type { CompactionOptions } from "../../../src/agent/compaction/compaction.ts";
import type { AgentConfig } from "../../../src/agent/config.ts";
import { runAgentLoop } from "../../../src/agent/loop.ts";
import { Session } from "../../../src/agent/session/session.ts";
import { AgentRegistry } from "../../../src/agents/agent-registry.ts";
import { builtinAgents } from "../../../src/agents/builtin-agents.ts";
import type { AgentDefinitionInput } from "../../../src/agents/definition.ts";
import type { AgentEvent, AgentEventType, EventOf } from "../../../src/contracts/events.ts";
import type { Outcome } from "../../../src/contracts/outcome.ts";
import {
  type Message,
  type ToolResultPart,
  type UserMessage,
  userText,
} from "../../../src/model/messages.ts";
import type { Model, ModelRequest } from "../../../src/model/model.ts";
import { createModel, type ModelSettings } from "../../../src/model/registry.ts";
import { DEFAULT_RULES } from "../../../src/permissions/defaults.ts";
import type { AskHandler, PermissionMode } from "../../../src/permissions/gate.ts";
import type { Ruleset } from "../../../src/permissions/types.ts";
import type { ChildPlacement } from "../../../src/subagents/run/child-placement.ts";
import type { SubagentLimits } from "../../../src/subagents/tree/limits.ts";
import type { SubagentRuntime } from "../../../src/subagents/tree/subagent-runtime.ts";
import { attachSubagents } from "../../../src/subagents/tree/with-subagents.ts";
import type { TaskStore } from "../../../src/tasks/task-store.ts";
import { builtinTools } from "../../../src/tools/builtin.ts";
import { nodeOperations } from "../../../src/tools/node-operations.ts";
import type { AnyTool } from "../../../src/tools/tool.ts";
import type { ModelServer } from "../../support/model-server.ts";
import { tempDir } from "../../support/temp-dir.ts";

/** The first line of the child preamble: how a script tells a child's request from its parent's. */
export const CHILD_MARK = "# You are a subagent";
export const ROOT_PROMPT = "You are the root agent of a test.";

/** A temp workspace (real path), removed when the current test finishes. */
export function tempWorkspace(): Promise<string> {
  return tempDir("agentry-subagents-");
}

/** The built-in agents plus `extra` (programmatic, so they win over built-ins of the same name). */
export function registryWith(...extra: AgentDefinitionInput[]): AgentRegistry {
  const registry = new AgentRegistry({ definitions: builtinAgents() });
  for (const input of extra) registry.register(input);
  return registry;
}

export interface TreeOptions {
  workspace: string;
  model: Model;
  registry?: AgentRegistry;
  limits?: Partial<SubagentLimits>;
  /** Default `DEFAULT_RULES`. */
  rules?: Ruleset;
  /** Default "bypass", so only deny rules refuse. */
  mode?: PermissionMode;
  onAsk?: AskHandler;
  askTimeoutMs?: number;
  /** The root's tools and the base tools; default the built-ins. */
  tools?: AnyTool[];
  /** Default: every id is refused. */
  createModel?: (id: string) => Model;
  /** Default: the workspace backend on `workspace`. */
  taskStore?: TaskStore;
  /** Default: a process warning. */
  onWarning?: (message: string) => void;
  /** Where children run besides this process (the A2A client for `url` agents). Default: none. */
  placements?: ChildPlacement[];
  /** Automatic compaction for the tree. Default: none. */
  compaction?: CompactionOptions;
}

/** A root agent with the `task` tool, sharing one runtime with its tree. */
export function rootTree(options: TreeOptions): { config: AgentConfig; runtime: SubagentRuntime } {
  const tools = options.tools ?? builtinTools();
  const root: AgentConfig = {
    name: "main",
    model: options.model,
    systemPrompt: ROOT_PROMPT,
    tools,
    workspace: options.workspace,
    ops: nodeOperations,
    agentPath: ["main"],
    depth: 0,
  };
  return attachSubagents(root, {
    registry: options.registry ?? registryWith(),
    createModel:
      options.createModel ??
      ((id) => {
        throw new Error(`no model "${id}" in this test`);
      }),
    baseTools: () => options.tools ?? builtinTools(),
    permission: {
      rules: options.rules ?? DEFAULT_RULES,
      mode: options.mode ?? "bypass",
      ...(options.onAsk === undefined ? {} : { onAsk: options.onAsk }),
      ...(options.askTimeoutMs === undefined ? {} : { askTimeoutMs: options.askTimeoutMs }),
    },
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.taskStore === undefined ? {} : { taskStore: options.taskStore }),
    ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
    ...(options.compaction === undefined ? {} : { compaction: options.compaction }),
    ...(options.placements === undefined ? {} : { placements: options.placements }),
  });
}

export interface TreeRun {
  outcome: Outcome;
  events: AgentEvent[];
  of<T extends AgentEventType>(type: T): EventOf<T>[];
  session: Session;
}

/** Runs the root on `prompt` (after `history`) and collects every event of the tree. */
export async function runTree(
  config: AgentConfig,
  prompt: string,
  options: { history?: Message[]; signal?: AbortSignal; onEvent?: (event: AgentEvent) => void } = {},
): Promise<TreeRun> {
  const session = await Session.create({
    workspace: config.workspace,
    agentName: "main",
    model: config.model.id,
    persist: false,
  });
  for (const message of options.history ?? []) await session.append(message);
  await session.append(userText(prompt));
  const events: AgentEvent[] = [];
  const outcome = await runAgentLoop(
    config,
    session,
    (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
    options.signal,
  );
  return {
    outcome,
    events,
    session,
    of: <T extends AgentEventType>(type: T) => events.filter((e): e is EventOf<T> => e.type === type),
  };
}

export function isChildRequest(request: ModelRequest): boolean {
  return request.system.includes(CHILD_MARK);
}

/** The text of the first user message: a child's prompt. */
export function firstUserText(messages: readonly Message[]): string {
  const first = messages.find((m): m is UserMessage => m.role === "user");
  return first?.content.map((part) => (part.type === "text" ? part.text : "")).join("") ?? "";
}

export function toolResultsIn(messages: readonly Message[]): ToolResultPart[] {
  return messages.flatMap((message) => (message.role === "tool_result" ? message.content : []));
}

/** The real Anthropic adapter (through the registry) pointed at the test server; no retries unless asked. */
export function serverModel(
  server: ModelServer,
  id = "anthropic:claude-sonnet-4-5",
  extra: Omit<ModelSettings, "anthropic"> = {},
): Model {
  return createModel(
    id,
    {
      anthropic: { apiKey: "test-key", baseUrl: server.anthropicBaseUrl },
      retry: { maxRetries: 0 },
      ...extra,
    },
    {},
  );
}

/** The system prompt of a recorded Anthropic request, as one string. */
export function wireSystem(body: Record<string, unknown>): string {
  const system = body.system;
  if (typeof system === "string") return system;
  if (Array.isArray(system)) return system.map((block: { text?: string }) => block.text ?? "").join("\n");
  return "";
}

export function wireToolNames(body: Record<string, unknown>): string[] {
  return ((body.tools as Array<{ name: string }> | undefined) ?? []).map((tool) => tool.name);
}

export interface WireMessage {
  role: string;
  content: string | Array<Record<string, unknown>>;
}

export function wireMessages(body: Record<string, unknown>): WireMessage[] {
  return (body.messages as WireMessage[] | undefined) ?? [];
}

/** Every text a wire message carries (text blocks and tool_result contents). */
export function wireTexts(message: WireMessage): string[] {
  if (typeof message.content === "string") return [message.content];
  return message.content.flatMap((block) => {
    if (typeof block.text === "string") return [block.text];
    if (block.type === "tool_result") {
      const content = block.content;
      if (typeof content === "string") return [content];
      if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? "");
    }
    return [];
  });
}

/** Drops `cache_control` markers, which move to the newest messages on every request. */
export function withoutCacheControl<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (key, inner: unknown) => (key === "cache_control" ? undefined : inner)),
  );
}
