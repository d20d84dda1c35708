// A child described once, for wherever it runs: its kind, its rules, the names of its tools, its
// `ChildSpec` (`describeChild`), and its system prompt.

import { readFileSync } from "node:fs";
import type { CompactionOptions } from "../../agent/compaction/compaction.ts";
import type { Hooks } from "../../agent/hooks.ts";
import type { AgentDefinition } from "../../agents/definition.ts";
import { definitionRules } from "../../agents/definition-rules.ts";
import type { Model } from "../../model/model.ts";
import { deriveChildRules, visibleTools } from "../../permissions/derive.ts";
import { confineProjectRules } from "../../permissions/project-rules.ts";
import type { Ruleset } from "../../permissions/types.ts";
import { wildcardMatch } from "../../permissions/wildcard.ts";
import type { AnyTool } from "../../tools/tool.ts";
import type { SpawnKit } from "../spawn/spawn-kit.ts";
import type { CallerScope } from "../tree/caller-scope.ts";
import type { SubagentLimits } from "../tree/limits.ts";
import { CHILD_SPEC_VERSION, type ChildSpec, type LoopChildSpec } from "./child-spec.ts";

/** The id of a tree counted in its own process only (no child of it runs elsewhere). */
const LOCAL_TREE = "local";

const PREAMBLE = readFileSync(new URL("./child-preamble.md", import.meta.url), "utf8").trim();

/**
 * The project's instructions (AGENTS.md, CLAUDE.md …) a child gets as its parent has them: built by the
 * composition root (`src/instructions/`) and passed in through the runtime's options. A definition
 * with `projectInstructions: false` gets none; a remote child never does (its own server decides).
 */
export interface ChildInstructions {
  /** The system prompt's section, the same as the root's (`""`: no instruction file). */
  section: string;
  /** Hooks that add a folder's own instruction files when the child first works there, in `workspace`. */
  hooks?: (workspace: string) => Hooks;
}

/** What describing a child, and building one in this process, take from its tree. */
export interface BuildDeps {
  /** The run's base rules (defaults and config: the root's), under every child's own. */
  baseRules: Ruleset;
  /** The tools a definition's `tools` list picks from. */
  baseTools: () => AnyTool[];
  limits: Pick<
    SubagentLimits,
    "maxDepth" | "maxDescendants" | "maxTurns" | "stallTimeoutMs" | "maxTokens" | "maxDurationMs"
  >;
  /** The tree's id, where its descendants are counted (`ChildTree.treeId`; absent: this process only). */
  treeId?: string;
  /** The spawn tools and hooks of an agent of the tree (for a child below the depth limit). */
  spawnKitFor: (caller: CallerScope) => SpawnKit;
  warn: (message: string) => void;
  /** The tree's automatic compaction, which every child gets. */
  compaction?: CompactionOptions;
  /** The project's instructions, for every child whose definition does not opt out. */
  instructions?: ChildInstructions;
  /** Hooks every child of the tree built in this process gets, first among its hooks (`SubagentOptions.childHooks`). */
  childHooks?: ChildHooksFactory;
  /** The trace context a child carries to where it runs (`SubagentOptions.traceparentFor`). */
  traceparentFor?: TraceparentFor;
}

/**
 * The W3C `traceparent` of the parent's `task` call that starts the child at `childPath` (its
 * `description` tells two calls apart), when the run is traced: the composition root's tracer.
 */
export type TraceparentFor = (childPath: readonly string[], description: string) => string | undefined;

/** Who a child is, for the hooks the tree gives it (Claude Code hooks, preloaded skills …). */
export interface ChildHookScope {
  definition: AgentDefinition;
  path: readonly string[];
  depth: number;
}

export type ChildHooksFactory = (child: ChildHookScope) => Hooks[];

/** Who a child is: enough to describe it the first time, and again from its TaskRecord later. */
export interface ChildSetup {
  definition: AgentDefinition;
  /** The model the parent resolved for it; absent for a remote agent, which runs on its own. */
  model?: Model;
  taskId: string;
  /** Its transcript's id (default: its task_id). */
  sessionId?: string;
  /** The caller's session (none: a child of no session, as a served conversation). */
  parentSessionId?: string;
  path: string[];
  depth: number;
  /** The caller's workspace, which a `shared` child works in. */
  parentWorkspace: string;
}

/**
 * The kind of child a definition makes: `remote` for an agent with a `url` (it runs on its A2A agent,
 * with that agent's own model and history), `loop` for any other. The one place in `src/subagents/`
 * where a definition's `url` decides anything: the rest asks the kind, and a placement takes a spec by it.
 */
export function childKind(definition: Pick<AgentDefinition, "url">): ChildSpec["kind"] {
  return definition.url === undefined ? "loop" : "remote";
}

/**
 * Describes a child once, for wherever it will run (`ChildSpec`): a remote agent (a definition with
 * `url`) by where it is and its limits; any other by its definition as resolved, its rules, the names
 * of its tools, the inputs of its sandbox, its limits and model (`describeLoopChild`).
 */
export function describeChild(deps: BuildDeps, caller: CallerScope, setup: ChildSetup): ChildSpec {
  const { definition, model } = setup;
  if (childKind(definition) === "remote" || model === undefined) return describeRemoteChild(deps, setup);
  return describeLoopChild(deps, caller, { ...setup, model });
}

/**
 * A child that runs agentry's loop: its rules (its definition's under the run's, plus every deny of
 * its caller), its tools (its own spawn tools only below the depth limit), its caller's sandbox ceiling
 * and permission mode, its limits and model. Throws an `AgentPermissionError` for a definition whose
 * permission cannot be read, which the loop shows the model as it is.
 */
export function describeLoopChild(
  deps: BuildDeps,
  caller: CallerScope,
  setup: ChildSetup & { model: Model },
): LoopChildSpec {
  const { definition } = setup;
  const rules = childRules(deps.baseRules, caller.gate.rules, definition);
  const baseTools = deps.baseTools();
  const own = childTools({
    definition,
    parentTools: caller.tools,
    baseTools,
    rules,
    mayNest: setup.depth < deps.limits.maxDepth,
  });
  for (const server of missingMcpServers(definition, [...baseTools, ...caller.tools]))
    deps.warn(
      `agent "${definition.name}" names MCP server "${server}" in mcpServers, but no such server runs in this session, so ${setup.path.join("/")} has none of its tools: configure it under "mcpServers" (agentry mcp list shows what runs)`,
    );
  const { workspace, allowedHosts, withheld, temperature } = definition;
  // The project's instructions, as the root has them (unless its definition opts out), travel with it.
  const instructions = definition.projectInstructions === false ? "" : (deps.instructions?.section ?? "");
  return {
    ...identityOf(setup),
    kind: "loop",
    agent: {
      name: definition.name,
      description: definition.description,
      prompt: definition.prompt,
      ...(withheld === undefined || withheld.length === 0 ? {} : { withheld }),
      ...(temperature === undefined ? {} : { temperature }),
    },
    model: setup.model.id,
    tools: own.tools.map((tool) => tool.name),
    spawn: own.spawn,
    rules,
    mode: caller.gate.mode,
    sandbox: {
      readOnly: caller.commands?.sandbox?.ceiling === "read-only",
      ...(allowedHosts === undefined ? {} : { allowedHosts }),
    },
    limits: limitsOf(deps, definition),
    tree: {
      id: deps.treeId ?? LOCAL_TREE,
      maxDepth: deps.limits.maxDepth,
      maxDescendants: deps.limits.maxDescendants,
    },
    ...(caller.toolOutputLimit === undefined ? {} : { toolOutputLimit: caller.toolOutputLimit }),
    ...(instructions.trim() === "" ? {} : { instructions }),
    workspace: {
      mode: workspace?.mode ?? "shared",
      parent: setup.parentWorkspace,
      ...(workspace?.path === undefined ? {} : { path: workspace.path }),
    },
  };
}

/**
 * A child's rules: the run's base rules (defaults and config, i.e. the root's), then its definition's
 * (`definitionRules`), then every deny of its parent — so a definition may settle what the config
 * leaves to ask, but no deny anywhere above it can be lifted. Allows of intermediate agents are not
 * inherited. A project file's definition is the repository's word: its rules only narrow unless the
 * user trusts the folder, and never allow leaving the sandbox or the workspace (`confineProjectRules`).
 * Throws `AgentPermissionError` when the definition's `permission` is unreadable.
 */
export function childRules(baseRules: Ruleset, parentRules: Ruleset, definition: AgentDefinition): Ruleset {
  const own = definitionRules(definition);
  const rules =
    definition.source.kind === "project"
      ? confineProjectRules(own, baseRules, definition.source.trusted === true).rules
      : own;
  return deriveChildRules(parentRules, [...baseRules, ...rules]);
}

/** Tools that start or steer subagents; a child only gets them below the depth limit. */
export function isSpawnTool(name: string): boolean {
  return name === "task" || name.startsWith("task_");
}

export interface ChildToolsOptions {
  definition: AgentDefinition;
  /** The caller's tools: what a definition without `tools` inherits. */
  parentTools: readonly AnyTool[];
  /** What a definition's `tools` list picks from. */
  baseTools: readonly AnyTool[];
  /** The child's permission rules: tools they deny with `*` are hidden. */
  rules: Ruleset;
  /** Whether the child is below the depth limit. */
  mayNest: boolean;
}

export interface ChildToolSet {
  /** The child's tools, spawn tools excluded. */
  tools: AnyTool[];
  /** Whether to add the child's own `task` tool. */
  spawn: boolean;
}

/**
 * A child's tools: its definition's `tools` picked from the base tools (absent = its parent's tools;
 * `[]` = none; `*` patterns such as `mcp__github__*` match several, and each server named in its
 * `mcpServers` adds that server's tools), minus `disallowedTools`, minus tools its rules hide. The parent's own spawn tools are
 * never inherited as they are (they are bound to the parent); `spawn` says whether the child gets
 * its own.
 */
export function childTools(options: ChildToolsOptions): ChildToolSet {
  const { definition, rules } = options;
  const listed = definition.tools;
  const disallowed = definition.disallowedTools ?? [];
  const allowed = (name: string) => !disallowed.some((pattern) => wildcardMatch(pattern, name));

  let picked: AnyTool[];
  if (listed === undefined) {
    picked = options.parentTools.filter((tool) => !isSpawnTool(tool.name));
  } else {
    const wanted = [...listed, ...(definition.mcpServers ?? []).map((server) => `mcp__${server.name}__*`)];
    const pool = unique([...options.baseTools, ...options.parentTools]);
    picked = pool.filter(
      (tool) => !isSpawnTool(tool.name) && wanted.some((pattern) => wildcardMatch(pattern, tool.name)),
    );
  }
  const tools = visibleTools(
    picked.filter((tool) => allowed(tool.name)),
    rules,
  );
  const wantsSpawn = listed === undefined || listed.includes("task");
  const spawn =
    options.mayNest && wantsSpawn && allowed("task") && visibleTools([{ name: "task" }], rules).length > 0;
  return { tools, spawn };
}

function unique(tools: AnyTool[]): AnyTool[] {
  const seen = new Set<string>();
  return tools.filter((tool) => {
    if (seen.has(tool.name)) return false;
    seen.add(tool.name);
    return true;
  });
}

/**
 * A child of a remote agent: where the agent is, and the limits of each activation a local child's
 * loop would have (stall watchdog, token and wall-clock budgets); its turns are the agent's business.
 */
function describeRemoteChild(deps: BuildDeps, setup: ChildSetup): ChildSpec {
  const { name, description, url = "", headers } = setup.definition;
  const agent = headers === undefined ? { name, description, url } : { name, description, url, headers };
  return { ...identityOf(setup), kind: "remote", agent, limits: limitsOf(deps, setup.definition) };
}

function identityOf(setup: ChildSetup) {
  return {
    v: CHILD_SPEC_VERSION,
    taskId: setup.taskId,
    sessionId: setup.sessionId ?? setup.taskId,
    parentSessionId: setup.parentSessionId ?? "",
    agentPath: setup.path,
    depth: setup.depth,
  } as const;
}

function limitsOf(deps: BuildDeps, definition: AgentDefinition) {
  const { limits } = deps;
  return {
    maxTurns: definition.maxTurns ?? limits.maxTurns,
    stallTimeoutMs: limits.stallTimeoutMs,
    ...(limits.maxTokens === undefined ? {} : { maxTokens: limits.maxTokens }),
    ...(limits.maxDurationMs === undefined ? {} : { maxDurationMs: limits.maxDurationMs }),
  };
}

/** Servers a definition names without a config (references to the session's) that gave no tool here. */
function missingMcpServers(definition: AgentDefinition, pool: readonly { name: string }[]): string[] {
  return (definition.mcpServers ?? [])
    .filter((server) => server.config === undefined)
    .map((server) => server.name)
    .filter((name) => !pool.some((tool) => tool.name.startsWith(`mcp__${name}__`)));
}

/**
 * A child's system prompt: its definition's prompt, then the harness preamble naming its workspace,
 * then what its file asked for and did not get (so it does not look for tools that are not there),
 * then the project's instructions (`ChildInstructions.section`, the same as its parent's: none when
 * it has none, so a child's prompt without instruction files is what it always was).
 */
export function childSystemPrompt(
  definition: { prompt: string; withheld?: readonly string[] | undefined },
  workspace: string,
  instructions = "",
): string {
  const preamble = PREAMBLE.replace("{{workspace}}", workspace);
  const withheld =
    definition.withheld === undefined || definition.withheld.length === 0
      ? ""
      : `Not available to you, though your definition asks for it:\n${definition.withheld.map((note) => `- ${note}`).join("\n")}`;
  return [definition.prompt.trim(), preamble, withheld, instructions.trim()]
    .filter((part) => part !== "")
    .join("\n\n");
}
