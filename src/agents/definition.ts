import { z } from "zod";
import type { PermissionAction, PermissionRule, Ruleset } from "../permissions/types.ts";

/**
 * The normalized agent definition every loader produces, whatever format the file was in.
 * Tool names are canonical (see `src/tools/tool-names.ts`); models are `provider:model` ids or aliases.
 */

export const AGENT_MODES = ["subagent", "primary", "all"] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

export const WORKSPACE_MODES = ["shared", "isolated", "worktree"] as const;
export type WorkspaceMode = (typeof WORKSPACE_MODES)[number];

export const AGENT_FORMATS = ["agentry", "claude", "opencode", "codex", "agentscope"] as const;
export type AgentFormat = (typeof AGENT_FORMATS)[number];

export const SOURCE_KINDS = ["builtin", "programmatic", "project", "user"] as const;
export type AgentSourceKind = (typeof SOURCE_KINDS)[number];

/** Run modes an agent file may ask for; the runtime never lets a child's mode exceed its parent's. */
export const AGENT_PERMISSION_MODES = ["default", "accept-edits", "bypass", "plan"] as const;
export type AgentPermissionMode = (typeof AGENT_PERMISSION_MODES)[number];

const PermissionActionSchema = z.enum(["allow", "ask", "deny"]) satisfies z.ZodType<PermissionAction>;

const PermissionRuleSchema = z.object({
  permission: z.string().min(1),
  pattern: z.string().min(1),
  action: PermissionActionSchema,
}) satisfies z.ZodType<PermissionRule>;

/**
 * OpenCode's permission map: `{ edit: "deny", bash: { "*": "ask", "git status*": "allow" } }`.
 * Key order matters (the last matching rule wins), and JavaScript keeps string keys in insertion order.
 */
export const PermissionMapSchema = z.record(
  z.string().min(1),
  z.union([PermissionActionSchema, z.record(z.string().min(1), PermissionActionSchema)]),
);
export type PermissionMap = z.infer<typeof PermissionMapSchema>;

/** Claude Code's settings form: `{ allow: ["Bash(git diff:*)"], deny: ["Edit"] }`. */
export const ClaudePermissionListsSchema = z.strictObject({
  allow: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
});

/**
 * A definition's permission as written: a ruleset, a bare action, Claude's lists or an OpenCode map.
 * `rulesetFromConfig` in `src/permissions/` turns any of them into a `Ruleset`.
 */
export const AgentPermissionConfigSchema = z.union([
  z.array(PermissionRuleSchema),
  PermissionActionSchema,
  ClaudePermissionListsSchema,
  PermissionMapSchema,
]);
export type AgentPermissionConfig =
  | Ruleset
  | PermissionAction
  | z.infer<typeof ClaudePermissionListsSchema>
  | PermissionMap;

/** An MCP server the agent uses: a reference to a configured server (`config` absent) or an inline one. */
export interface McpServerRef {
  name: string;
  config?: Record<string, unknown> | undefined;
}

/** A bare name is a reference too, as Claude Code writes it (`mcpServers: [github]`). */
export const McpServerRefSchema = z
  .union([
    z.string().min(1),
    z.object({
      name: z.string().min(1),
      config: z.record(z.string(), z.unknown()).optional(),
    }),
  ])
  .transform((ref): McpServerRef => (typeof ref === "string" ? { name: ref } : ref));

export const AgentSourceSchema = z.object({
  kind: z.enum(SOURCE_KINDS),
  format: z.enum(AGENT_FORMATS),
  /** Absolute path of the file the definition came from; absent for built-ins and programmatic ones. */
  path: z.string().optional(),
  /**
   * A project file's definition: whether the user trusts the folder. Untrusted (or unsaid), its rules
   * only narrow and it was loaded without what would widen (`confineProjectDefinitions`).
   */
  trusted: z.boolean().optional(),
});
export type AgentSource = z.infer<typeof AgentSourceSchema>;

/**
 * The description of a remote (`url`) agent whose file gives none: a run replaces it with its agent
 * card's description (`src/cli/wire/wire-subagents.ts`), and keeps it when the card cannot be read.
 */
export const CARD_DESCRIPTION = "A remote A2A agent (its description comes from its agent card).";

/** Agent names double as path segments (`.agentry/agents/<name>/workspace/`), so they stay filename-safe. */
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const AgentDefinitionSchema = z.object({
  name: z
    .string()
    .regex(AGENT_NAME_PATTERN, "letters, digits, '.', '_' or '-', at most 64, no leading symbol"),
  description: z.string().min(1),
  /** The agent's own system prompt (the harness adds a short preamble for children). */
  prompt: z.string(),
  /** Canonical tool names and MCP names. Absent = inherit the parent's tools; `[]` = no tools. */
  tools: z.array(z.string().min(1)).optional(),
  /** Removed from whatever `tools` resolves to. May hold `*` globs (OpenCode `mymcp_*: false`). */
  disallowedTools: z.array(z.string().min(1)).optional(),
  permission: AgentPermissionConfigSchema.optional(),
  permissionMode: z.enum(AGENT_PERMISSION_MODES).optional(),
  /** `provider:model` or an alias (`sonnet | opus | haiku`) resolved through config. Absent = inherit. */
  model: z.string().min(1).optional(),
  maxTurns: z.number().int().positive().optional(),
  mode: z.enum(AGENT_MODES),
  /** Still callable through `task`; only left out of pickers and autocomplete. */
  hidden: z.boolean().optional(),
  workspace: z
    .object({
      mode: z.enum(WORKSPACE_MODES),
      path: z.string().min(1).optional(),
    })
    .optional(),
  background: z.boolean().optional(),
  fork: z.union([z.literal("none"), z.literal("all"), z.number().int().positive()]).optional(),
  mcpServers: z.array(McpServerRefSchema).optional(),
  temperature: z.number().min(0).max(2).optional(),
  color: z.string().min(1).optional(),
  /** A2A endpoint of a remote agent (DESIGN §5). */
  url: z.url().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /**
   * Hosts its commands may reach, among those the user's config allows (`sandbox.network.allowedHosts`):
   * it only narrows; `[]` = no network. Absent = its parent's.
   */
  allowedHosts: z.array(z.string().min(1)).optional(),
  /**
   * Claude Code hooks for this agent only (`hooks:` of its file, Claude Code's shape: `readHookSettings`
   * in `src/hooks/`); its `Stop` hooks run as SubagentStop. A project file's apply in a trusted folder only.
   */
  hooks: z.record(z.string(), z.unknown()).optional(),
  /** Skills preloaded into the agent's context by name (Claude Code's `skills:`). */
  skills: z.array(z.string().min(1)).optional(),
  /** Bash runs under `READ_ONLY_BASH_RULES` before the definition's own `permission` (see definition-rules.ts). */
  readOnlyBash: z.boolean().optional(),
  /**
   * `false`: the child's system prompt leaves out the project's instruction files (AGENTS.md,
   * CLAUDE.md …) its parent has (docs/instructions.md). Absent = it gets them.
   */
  projectInstructions: z.boolean().optional(),
  /** What its file asked for and did not get (an untrusted folder's MCP server …): the child is told. */
  withheld: z.array(z.string()).optional(),
  /** Why it cannot run at all (a remote agent whose URL was withheld); spawning it fails saying so. */
  unavailable: z.string().optional(),
  source: AgentSourceSchema,
});

export type AgentDefinition = z.infer<typeof AgentDefinitionSchema>;

/** What `AgentRegistry.register` and `--agents` JSON accept: the definition minus what we can default. */
export const AgentDefinitionInputSchema = AgentDefinitionSchema.extend({
  mode: z.enum(AGENT_MODES).optional(),
  source: AgentSourceSchema.optional(),
});
export type AgentDefinitionInput = z.input<typeof AgentDefinitionInputSchema>;

/** True when the agent can be spawned through `task`. */
export function isSubagent(definition: Pick<AgentDefinition, "mode">): boolean {
  return definition.mode !== "primary";
}
