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
import { restrictToReadOnly } from "./policy-fields.ts";

/**
 * Codex's `.codex/agents/*.toml` roles: `name`, `description`, `developer_instructions` (the prompt),
 * `model` (with `model_provider`, default OpenAI), `sandbox_mode`, `mcp_servers`. A role file may hold
 * any Codex config key; the ones we cannot use are reported.
 */
function handlers(defaultProvider: string): Record<string, KeyHandler> {
  return {
    name: () => {}, // read by resolveName
    description: f.description,
    developer_instructions: (value, draft, ctx, key) => {
      if (typeof value === "string") draft.prompt = value.trim();
      else ctx.ignore(key, "not a string");
    },
    model: f.modelHandler(defaultProvider),
    model_provider: () => {}, // folded into model
    mcp_servers: f.mcpServers,
    sandbox_mode: (value, draft, ctx, key) => {
      if (value === "read-only") restrictToReadOnly(draft);
      else if (value !== "workspace-write" && value !== "danger-full-access") {
        ctx.fail(`${key} must be read-only, workspace-write or danger-full-access`, key);
      }
    },
    model_reasoning_effort: f.unsupported("reasoning effort is set per model in config"),
    model_reasoning_summary: f.unsupported("reasoning summaries are set per model in config"),
    model_verbosity: f.unsupported("verbosity is set per model in config"),
    nickname_candidates: f.unsupported("agentry names children <agent>-<n>"),
    approval_policy: f.unsupported("approvals follow agentry's permission rules and --permission-mode"),
    web_search: f.unsupported("agentry has no web search tool"),
    skills: f.unsupported("agentry has no skills yet"),
  };
}

export function loadCodexAgent(text: string, path: string, kind: AgentSourceKind = "project"): LoadResult {
  const ctx = new LoadContext(path, topLevelKeyLines(text));
  let data: Record<string, unknown>;
  try {
    data = parse(text);
  } catch (error) {
    const line = error instanceof TomlError ? error.line : undefined;
    const message = error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
    ctx.diagnostics.push({
      severity: "error",
      file: path,
      ...(line === undefined ? {} : { line }),
      message: `invalid TOML: ${message}`,
      action: "skipped the file",
    });
    return { diagnostics: ctx.diagnostics };
  }
  const provider = typeof data.model_provider === "string" ? data.model_provider : "openai";
  const draft: Draft = { mode: "subagent", prompt: "", source: { kind, format: "codex", path } };
  draft.name = resolveName(data.name, path, ctx, { nameExpected: true });
  applyKeys(data, handlers(provider), draft, ctx);
  return finish(draft, ctx);
}

/** TOML has no position API; top-level `key =` lines before the first table header are enough. */
function topLevelKeyLines(text: string): Record<string, number> {
  const lines: Record<string, number> = {};
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (/^\s*\[/.test(line)) {
      const table = /^\s*\[+\s*([\w-]+)/.exec(line)?.[1];
      if (table !== undefined && lines[table] === undefined) lines[table] = index + 1;
      continue;
    }
    const key = /^\s*([\w-]+)\s*=/.exec(line)?.[1];
    if (key !== undefined && lines[key] === undefined) lines[key] = index + 1;
  }
  return lines;
}
