import { isAbsolute, join } from "node:path";
import type { AgentSourceKind } from "../definition.ts";
import { parseFrontMatter } from "../front-matter.ts";
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
import { fork, isolation, restrictionHandlers } from "./policy-fields.ts";

/**
 * agentry's own format (`.agentry/agents/**\/*.md`) and the seeds' AgentScope harness declarations
 * (the project's `subagents/*.md`): every `AgentDefinition` key, Claude's spellings of the shared ones,
 * and AgentScope's `workspace: {mode, path}`, `maxIters` and `steps`.
 */
const HANDLERS: Readonly<Record<string, KeyHandler>> = {
  ...restrictionHandlers("error"),
  name: () => {}, // read by resolveName
  description: f.description,
  model: f.modelHandler(),
  maxTurns: f.maxTurns,
  maxIters: f.maxTurns,
  steps: f.maxTurns,
  maxSteps: f.maxTurns,
  mode: f.mode,
  hidden: f.hidden,
  isolation,
  background: f.background,
  fork,
  mcpServers: f.mcpServers,
  temperature: f.temperature,
  color: f.color,
  url: (value, draft, ctx, key) => {
    if (typeof value === "string" && URL.canParse(value)) {
      draft.url = value;
      ctx.report(
        "warning",
        "remote (A2A) agents are not supported in this version",
        "kept the definition, but `task` will not offer or start it",
        key,
      );
    } else ctx.fail(`${key} must be an absolute URL`, key);
  },
  headers: (value, draft, ctx, key) => {
    const entries = typeof value === "object" && value !== null ? Object.entries(value) : undefined;
    if (entries === undefined || Array.isArray(value) || entries.some(([, v]) => typeof v !== "string")) {
      return ctx.fail(`${key} must map header names to strings`, key);
    }
    draft.headers = Object.fromEntries(entries) as Record<string, string>;
  },
};

export interface AgentryLoadOptions {
  kind?: AgentSourceKind;
  /** `agentscope` for the project's `subagents/` folder. */
  format?: "agentry" | "agentscope";
  /** Folder that relative `workspace.path` values start from (the project root). Default: beside the file. */
  baseDir?: string;
}

export function loadAgentryAgent(text: string, path: string, options: AgentryLoadOptions = {}): LoadResult {
  const fm = parseFrontMatter(text, path);
  const ctx = new LoadContext(path, fm.keyLines, fm.diagnostics);
  if (!fm.present) {
    ctx.fail("no front matter: an agent file starts with a `---` block holding at least a description");
    return finish({}, ctx);
  }
  if (ctx.isSkipped) return finish({}, ctx);
  const format = options.format ?? "agentry";
  const draft: Draft = {
    mode: "subagent",
    prompt: fm.body,
    source: { kind: options.kind ?? "project", format, path },
  };
  draft.name = resolveName(fm.data.name, path, ctx);
  applyKeys(fm.data, HANDLERS, draft, ctx);
  const folder = draft.workspace?.path;
  if (folder === undefined) return finish(draft, ctx);
  const base = options.baseDir ?? join(path, "..");
  return finish(draft, ctx, join(isAbsolute(folder) ? folder : join(base, folder), "AGENTS.md"));
}
