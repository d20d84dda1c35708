import { parse, TomlError } from "smol-toml";
import type { AgentSourceKind } from "../definition.ts";
import * as f from "./fields.ts";
import {
  applyKeys,
  type Draft,
  finish,
  type KeyHandler,
  LoadContext,
  type LoadResult,
  resolveName,
} from "./load-context.ts";
import { restrictionHandlers } from "./policy-fields.ts";
import { tomlLines } from "./toml-lines.ts";
import { isPlainObject } from "./tool-list.ts";

/** Codex's `[tools]` table switches on Codex's own extras; none of them is a tool agentry has. */
const CODEX_TOOL_SWITCHES = new Set(["web_search", "view_image"]);

/**
 * Codex's `.codex/agents/*.toml` roles: `name`, `description`, `developer_instructions` (the prompt),
 * `model` (with `model_provider`, default OpenAI), `sandbox_mode`, `mcp_servers`. A role file may hold
 * any Codex config key; the ones we cannot use are reported.
 */
function handlers(defaultProvider: string): Record<string, KeyHandler> {
  return {
    ...restrictionHandlers("error"),
    name: () => {}, // read by resolveName; a role of config.toml is named by its table instead
    description: f.description,
    developer_instructions: (value, draft, ctx, key) => {
      if (typeof value === "string") draft.prompt = value.trim();
      else ctx.ignore(key, "not a string");
    },
    model: f.modelHandler(defaultProvider),
    model_provider: () => {}, // folded into model
    mcp_servers: f.mcpServers,
    tools: (value, _draft, ctx, key) => {
      if (!isPlainObject(value) || Object.keys(value).some((k) => !CODEX_TOOL_SWITCHES.has(k))) {
        return ctx.fail(`${key} in a Codex role is the [tools] table of web_search and view_image`, key);
      }
      ctx.ignore(key, "agentry has no web search or image viewer tool", "info");
    },
    sandbox_workspace_write: f.unsupported(
      "it tunes workspace-write, which is not a limit in agentry; the agent's commands follow its permission rules",
    ),
    model_reasoning_effort: f.unsupported("reasoning effort is set per model in config"),
    model_reasoning_summary: f.unsupported("reasoning summaries are set per model in config"),
    model_verbosity: f.unsupported("verbosity is set per model in config"),
    nickname_candidates: f.unsupported("agentry names children <agent>-<n>"),
    approval_policy: f.unsupported("approvals follow agentry's permission rules and --permission-mode"),
    web_search: f.unsupported("agentry has no web search tool"),
    skills: f.unsupported("agentry has no skills yet"),
  };
}

/** A role declared in `.codex/config.toml` (`[agents.<name>]`), whose `config_file` is this file. */
export interface CodexRole {
  name: string;
  /** The role table's description, which wins over the file's. */
  description?: string;
  /** Where the role was declared, for messages. */
  declaredIn: string;
}

/**
 * One role file. For a role of `.codex/config.toml`, `role` gives its name and description, and
 * `text` is its `config_file` ("" when it has none).
 */
export function loadCodexAgent(
  text: string,
  path: string,
  kind: AgentSourceKind = "project",
  role?: CodexRole,
): LoadResult {
  const subject = role === undefined ? undefined : `role "${role.name}" of ${role.declaredIn}`;
  const ctx = new LoadContext(path, keyLines(text), [], subject);
  const data = parseToml(text, ctx);
  if (data === undefined) return { diagnostics: ctx.diagnostics };
  const provider = typeof data.model_provider === "string" ? data.model_provider : "openai";
  const draft: Draft = { mode: "subagent", prompt: "", source: { kind, format: "codex", path } };
  draft.name =
    role === undefined
      ? resolveName(data.name, path, ctx, { nameExpected: true })
      : resolveName(role.name, path, ctx, { given: true });
  applyKeys(data, handlers(provider), draft, ctx);
  if (role?.description !== undefined) draft.description = role.description;
  return finish(draft, ctx);
}

/** The parsed table, or undefined after an `invalid TOML` error. */
export function parseToml(text: string, ctx: LoadContext): Record<string, unknown> | undefined {
  try {
    return parse(text);
  } catch (error) {
    const line = error instanceof TomlError ? error.line : undefined;
    const message = error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
    ctx.fail(`invalid TOML: ${message}`);
    if (line !== undefined) {
      const last = ctx.diagnostics.at(-1);
      if (last !== undefined) last.line = line;
    }
    return undefined;
  }
}

/**
 * The line of each key and table named at the start of a line (`key =`, `dotted.key =`, `[table]`,
 * `[[array.of.tables]]`); the first, when a name comes again, since top-level keys come before any
 * table. TOML has no position API.
 */
function keyLines(text: string): Record<string, number> {
  // No prototype: a key named `toString` or `constructor` must not find Object's.
  const lines: Record<string, number> = Object.create(null);
  for (const { line, number } of tomlLines(text)) {
    const name = /^\s*(?:\[+\s*)?([\w-]+)\s*[=.\]]/.exec(line)?.[1];
    if (name !== undefined) lines[name] ??= number;
  }
  return lines;
}
