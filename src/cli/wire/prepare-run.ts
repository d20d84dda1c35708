import { homedir } from "node:os";
import type { CompactionOptions } from "../../agent/compaction/compaction.ts";
import type { AgentConfig } from "../../agent/config.ts";
import { Session } from "../../agent/session/session.ts";
import { TranscriptFormatError } from "../../agent/session/transcript.ts";
import { buildSystemPrompt } from "../../agent/system-prompt.ts";
import type { LoadedAgents } from "../../agents/discover.ts";
import { isAgentryError } from "../../errors/agentry-error.ts";
import type { HookCommand } from "../../hooks/hook-settings.ts";
import type { LoadedInstructions } from "../../instructions/instruction-file.ts";
import type { McpClientFeatures } from "../../mcp/client-features.ts";
import type { McpServerSet } from "../../mcp/mcp-servers.ts";
import type { Model } from "../../model/model.ts";
import { ModelLimiters } from "../../model/model-limiters.ts";
import { visibleTools } from "../../permissions/derive.ts";
import {
  type AskHandler,
  createPermissionGate,
  type PermissionGate,
  type PermissionMode,
} from "../../permissions/gate.ts";
import type { Ruleset } from "../../permissions/types.ts";
import type { Skill } from "../../skills/skill.ts";
import type { SubagentRuntime, TraceparentFor } from "../../subagents/index.ts";
import { spawnableAgents } from "../../subagents/index.ts";
import type { AnyTool } from "../../tools/tool.ts";
import { projectWarnings } from "../config/project-report.ts";
import { type ProjectView, readProject } from "../config/read-project.ts";
import type { SettingFlags, Settings } from "../config/resolve-settings.ts";
import { CommandGrants } from "../custom-commands/command-grants.ts";
import { damagedSessionError } from "../damaged-session.ts";
import type { ElicitHandler } from "../elicit-prompt.ts";
import { UsageError } from "../errors.ts";
import type { CliIo } from "../io.ts";
import { loadMcpConfigFlags } from "../mcp-config-flag.ts";
import { instructionsForAgents, loadProjectInstructions } from "../project-instructions.ts";
import { selectModel } from "../select-model.ts";
import { resolveWorkspace } from "../workspace.ts";
import { permissionRules } from "./permission-rules.ts";
import { personChannel } from "./person-channel.ts";
import { wireAgent } from "./wire-agent.ts";
import { wireCommands } from "./wire-commands.ts";
import { wireCompaction } from "./wire-compaction.ts";
import { type FleetFlags, wireFleet } from "./wire-fleet.ts";
import { type WiredHooks, wireHooks } from "./wire-hooks.ts";
import { mcpInstructions, mcpToolChanges, wireMcp } from "./wire-mcp.ts";
import { firstAnswer, wireSkills } from "./wire-skills.ts";
import { agentFileWarning, wireSubagents } from "./wire-subagents.ts";

// The steps `agentry run` and `agentry chat` share to build the root agent, in the order `run` takes
// them (its prompt is read between the first two, so an empty prompt fails before anything else).

export interface RunSettingsOptions {
  cwd?: string;
  model?: string;
  maxTurns?: number;
  permissionMode?: PermissionMode;
  maxConcurrency?: number;
  /** `--trust-project`: the project's widening settings apply for this run. */
  trustProject?: boolean;
}

export interface RunSettings {
  workspace: string;
  settings: Settings;
  rules: Ruleset;
  limiters: ModelLimiters;
  /** The workspace's files as read, with the folder's trust and what was withheld. */
  project: ProjectView;
  /** AGENTS.md, CLAUDE.md … of the user and the project (docs/instructions.md). */
  instructions: LoadedInstructions;
}

/**
 * The workspace (`--cwd`), every setting (flags > env > project > user > defaults) with the folder's
 * trust (`readProject`: `confirmTrust` asks the person, interactive `chat` only), the root's permission
 * rules — so a bad config file fails before anything else happens — and the limiters every model of
 * the run shares (one per endpoint: the root's, its subagents', a `/model` switch). What the project's
 * files hold and was not applied is one line on stderr.
 */
export async function loadRunSettings(
  options: RunSettingsOptions,
  io: CliIo,
  confirmTrust?: (view: ProjectView) => Promise<boolean>,
): Promise<RunSettings> {
  const workspace = await resolveWorkspace(options.cwd, io.cwd);
  const flags: SettingFlags = {};
  if (options.model !== undefined) flags.model = options.model;
  if (options.maxTurns !== undefined) flags.maxTurns = options.maxTurns;
  if (options.permissionMode !== undefined) flags.permissionMode = options.permissionMode;
  if (options.maxConcurrency !== undefined) flags.maxConcurrency = options.maxConcurrency;
  const project = await readProject({
    workspace,
    env: io.env,
    flags,
    ...(options.trustProject === undefined ? {} : { trustProject: options.trustProject }),
    ...(confirmTrust === undefined ? {} : { confirmTrust }),
  });
  const { settings } = project;
  for (const line of projectWarnings(project)) io.stderr.write(`${line}\n`);
  for (const warning of project.hooks.warnings) io.stderr.write(`warning: ${warning}\n`);
  const { trusted } = project.trust;
  // The config files' `instructions` lists, agentry's and the peers' (OpenCode's), as the resolver read them.
  const lists = settings.instructions;
  const instructions = await loadProjectInstructions({ workspace, env: io.env, trusted, lists });
  for (const warning of instructions.diagnostics) io.stderr.write(`warning: ${warning}\n`);
  const limiters = new ModelLimiters(settings.modelConcurrency);
  return { workspace, settings, rules: permissionRules(settings), limiters, project, instructions };
}

/**
 * The stored session to continue (`--resume`, its transcript warnings printed) and the model to run
 * with. The model is validated before the caller creates a new session, so a config error leaves no
 * empty transcript behind.
 */
export async function selectSessionAndModel(
  workspace: string,
  settings: Settings,
  io: CliIo,
  resume: string | undefined,
  limiters?: ModelLimiters,
): Promise<{ resumed: Session | undefined; model: Model }> {
  const resumed = resume === undefined ? undefined : await resumeSession(workspace, resume);
  for (const warning of resumed?.warnings ?? []) io.stderr.write(`warning: ${warning}\n`);
  const model = await selectModel(settings, io.env, resumed?.model, limiters);
  return { resumed, model };
}

export interface WireRootOptions {
  workspace: string;
  settings: Settings;
  rules: Ruleset;
  model: Model;
  io: CliIo;
  /** The interactive permission prompt; without it, asks resolve by the permission mode. */
  onAsk?: AskHandler;
  /** MCP servers' forms (elicitation) on the terminal; without it, they are declined. */
  onElicit?: ElicitHandler;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** The instruction files (`loadRunSettings`): after the system prompt, for the root and its children. */
  instructions?: LoadedInstructions;
  /** `--agents` JSON. */
  agents?: string;
  /** The agent definitions of the workspace's files, confined by the folder's trust (`readProject`). */
  definitions: LoadedAgents;
  /** `--mcp-config` values: files or JSON with more MCP servers (over the config files' by name). */
  mcpConfig?: readonly string[];
  /** Cancels MCP servers that are still starting (Ctrl-C during the wiring). */
  signal?: AbortSignal;
  /** The run's model limiters (`loadRunSettings`), so children share the root's endpoints' limits. */
  limiters?: ModelLimiters;
  /** Give the root the `workflow` tool (`--workflows`); default: the config's `workflows.enabled`. */
  workflows?: boolean;
  /** `--store` and `--queue`: task records and children on Redis (`wireFleet`). */
  fleet?: FleetFlags;
  /**
   * Claude Code hooks of the settings files that apply (`readProject`); agent files' hooks run for their
   * children. Undefined: no hook runs at all (`--no-hooks`).
   */
  hooks?: readonly HookCommand[];
  /** Skills of the workspace's and the user's folders (`readProject`): the `skill` tool, preloading. */
  skills?: readonly Skill[];
  /** The trace context a child carries to where it runs (the run's tracer, `wireTracing`). */
  traceparentFor?: TraceparentFor;
}

/** The flags `run`, `chat` and `workflow run` take alike and hand to `wireRoot` as they are. */
export interface SharedWiringFlags {
  agents?: string;
  mcpConfig?: string[];
  store?: string;
  queue?: string;
}

/** `--agents`, `--mcp-config`, `--store` and `--queue` as `wireRoot` options, the absent ones left out. */
export function sharedWiring(
  flags: SharedWiringFlags,
): Pick<WireRootOptions, "agents" | "mcpConfig" | "fleet"> {
  return {
    ...(flags.agents === undefined ? {} : { agents: flags.agents }),
    ...(flags.mcpConfig === undefined ? {} : { mcpConfig: flags.mcpConfig }),
    fleet: {
      ...(flags.store === undefined ? {} : { store: flags.store }),
      ...(flags.queue === undefined ? {} : { queue: flags.queue }),
    },
  };
}

/** What `wireRoot` built. Call `close()` when the run or session ends. */
export interface WiredRoot {
  config: AgentConfig;
  runtime: SubagentRuntime;
  /** How conversations are compacted (automatically when enabled; `/compact` always). */
  compaction: CompactionOptions;
  /** The run's MCP servers (their prompts, resources for `@server:uri`), when any is configured. */
  mcp: McpServerSet | undefined;
  /** Claude Code hooks (UserPromptSubmit, SessionEnd, their events' sink); undefined with `--no-hooks`. */
  hooks: WiredHooks | undefined;
  /** A saved command's `allowed-tools` while its turn runs (cleared by the caller after it). */
  commandGrants: CommandGrants;
  /** The subagents the root may start (a saved command's `agent`). */
  subagents(): string[];
  /** Ends the subagent runtime, then the MCP servers' connections. */
  close(reason?: string): Promise<void>;
}

/**
 * The root agent with its subagents: the permission gate (rules from config, the mode, the prompt),
 * the system prompt, the built-in tools, the tools of the MCP servers and the runtime the whole tree
 * shares. Agent-file problems and MCP servers that fail to start are warnings on stderr.
 */
export async function wireRoot(options: WireRootOptions): Promise<WiredRoot> {
  const { workspace, settings, io } = options;
  const hooks =
    options.hooks === undefined
      ? undefined
      : wireHooks({
          hooks: options.hooks,
          workspace,
          env: io.env,
          permissionMode: settings.permissionMode.value,
        });
  const skills = wireSkills(options.skills ?? [], settings.trusted);
  // Permission prompts and MCP servers' forms reach the same person, one question at a time; hooks
  // hear of a prompt (Notification) before it is put.
  const person = personChannel();
  const { onElicit } = options;
  const onAsk =
    options.onAsk === undefined || hooks === undefined ? options.onAsk : hooks.notifying(options.onAsk);
  const commandGrants = new CommandGrants();
  const approve = firstAnswer(hooks?.approve, skills.approve, commandGrants.approve);
  const ask = createPermissionGate({
    rules: options.rules,
    mode: settings.permissionMode.value,
    ...(onAsk === undefined
      ? {}
      : { onAsk: (request, signal) => person(signal, "reject" as const, () => onAsk(request, signal)) }),
    ...(approve === undefined ? {} : { approve }),
  });
  const systemPromptOptions: Parameters<typeof buildSystemPrompt>[0] = { workspace };
  if (options.systemPrompt !== undefined) systemPromptOptions.replace = options.systemPrompt;
  if (options.appendSystemPrompt !== undefined) systemPromptOptions.append = options.appendSystemPrompt;
  // Probing the OS sandbox runs bwrap once: let it overlap the MCP servers' start.
  const commandsPending = wireCommands({
    workspace,
    settings,
    rules: options.rules,
    mode: settings.permissionMode.value,
    io,
  });
  commandsPending.catch(() => {});
  const fleet = await wireFleet(
    options.fleet ?? {},
    io.env,
    settings.fleet,
    (message) => io.stderr.write(`warning: ${message}\n`),
    options.limiters,
  );
  const servers = {
    ...settings.mcpServers,
    ...(await loadMcpConfigFlags(options.mcpConfig ?? [], workspace)),
  };
  const mcp = await wireMcp(servers, {
    workspace,
    io,
    values: settings.env,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    features: mcpFeatures(options.model, ask, onElicit, person),
  }).catch(async (error: unknown) => {
    await fleet.close();
    throw error;
  });
  try {
    const warn = (message: string) => io.stderr.write(`warning: ${message}\n`);
    const shared = options.instructions && instructionsForAgents(options.instructions, warn);
    // The instructions right after the built-in prompt: the same all session, so the cache keeps them.
    const systemPrompt = [await buildSystemPrompt(systemPromptOptions), shared?.section, mcpInstructions(mcp)]
      .filter((part) => part !== undefined && part !== "")
      .join("\n\n");
    const commands = await commandsPending;
    const compaction = await wireCompaction(settings, io.env, options.limiters);
    const agent = wireAgent({
      workspace,
      commands,
      model: options.model,
      systemPrompt,
      settings,
      ask,
      env: io.env,
      extraTools: [...(mcp?.tools ?? []), ...(skills.tool === undefined ? [] : [skills.tool])],
    });
    // A tool whose rules deny `*` is not offered to the root either (children drop theirs too).
    const visible = (tools: readonly AnyTool[]) => visibleTools(tools, options.rules);
    agent.tools = visible(agent.tools);
    if (mcp !== undefined)
      agent.hooks = [...(agent.hooks ?? []), mcpToolChanges(mcp, visible(mcp.tools), visible)];
    if (hooks !== undefined) agent.hooks = [hooks.root, ...(agent.hooks ?? [])];
    const {
      config: wired,
      runtime,
      diagnostics,
    } = await wireSubagents(agent, {
      workspace,
      definitions: options.definitions,
      settings,
      gate: ask,
      env: io.env,
      onWarning: (message) => io.stderr.write(`warning: ${message}\n`),
      ...(options.agents === undefined ? {} : { agentsJson: options.agents }),
      ...(options.limiters === undefined ? {} : { limiters: options.limiters }),
      ...(shared === undefined ? {} : { instructions: shared }),
      ...(settings.compaction.enabled ? { compaction } : {}),
      ...(fleet.taskStore === undefined ? {} : { taskStore: fleet.taskStore }),
      ...(fleet.placement === undefined ? {} : { placement: fleet.placement }),
      ...(fleet.descendants === undefined ? {} : { descendants: fleet.descendants }),
      childHooks: (child) => [...(hooks?.child(child) ?? []), ...skills.child(child)],
      ...(options.traceparentFor === undefined ? {} : { traceparentFor: options.traceparentFor }),
    });
    // After the compaction's hooks, so a folder's files are added again once it summarized them away.
    const config = shared ? { ...wired, hooks: [...(wired.hooks ?? []), shared.hooks(workspace)] } : wired;
    const agentWarning = agentFileWarning(diagnostics);
    if (agentWarning) io.stderr.write(`${agentWarning}\n`);
    // Loaded only when asked for: a run without workflows reads none of their modules or prompts.
    const orchestrates = options.workflows ?? settings.workflows;
    const { withWorkflows } = orchestrates
      ? await import("../../workflows/index.ts")
      : { withWorkflows: undefined };
    return {
      config: withWorkflows ? withWorkflows(config, runtime, io.env.HOME || homedir()) : config,
      runtime,
      compaction,
      mcp,
      hooks,
      commandGrants,
      subagents: () => spawnableAgents(runtime.registry, runtime.gate.rules).map((agent) => agent.name),
      async close(reason) {
        try {
          await runtime.shutdown(reason);
        } finally {
          await mcp?.close();
          await fleet.close();
        }
      },
    };
  } catch (error) {
    await mcp?.close();
    await fleet.close();
    throw error;
  }
}

/**
 * What the run's MCP servers may ask of it: forms through the person at the terminal (declined without
 * one), and sampling through the run's model once the `mcp_sampling` permission allows it (a rule, the
 * mode, or the person).
 */
function mcpFeatures(
  model: Model,
  ask: PermissionGate,
  onElicit: ElicitHandler | undefined,
  person: ReturnType<typeof personChannel>,
): McpClientFeatures {
  return {
    ...(onElicit === undefined
      ? {}
      : {
          elicit: (request, signal) =>
            person(signal, { action: "cancel" } as const, () => onElicit(request, signal)),
        }),
    sampling: {
      model: () => model,
      approve: (request, signal) =>
        ask(
          {
            permission: "mcp_sampling",
            patterns: [request.server],
            title: `MCP server "${request.server}" asks the model for up to ${request.maxTokens} tokens: ${request.preview}`,
          },
          { path: ["main"] },
          signal,
        ),
    },
  };
}

async function resumeSession(workspace: string, id: string): Promise<Session> {
  try {
    return await Session.resume(workspace, id);
  } catch (error) {
    // An unknown, malformed, busy or damaged session: say which flag named it (a damaged one, how to
    // get past it).
    if (!isAgentryError(error) || error.kind !== "user") throw error;
    const message =
      error instanceof TranscriptFormatError ? damagedSessionError(id, error).message : error.message;
    throw new UsageError(`--resume: ${message}`, { cause: error });
  }
}
