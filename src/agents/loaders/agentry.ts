import { isAbsolute, join } from "node:path";
import type { AgentSourceKind } from "../definition.ts";
import * as f from "./fields.ts";
import type { KeyHandler, LoadResult } from "./load-context.ts";
import { loadMarkdownAgent } from "./markdown-agent.ts";
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
  skills: f.skills,
  hooks: f.hooks,
  temperature: f.temperature,
  color: f.color,
  projectInstructions: (value, draft, ctx, key) => {
    if (typeof value === "boolean") draft.projectInstructions = value;
    else ctx.ignore(key, "not true or false");
  },
  url: (value, draft, ctx, key) => {
    // A remote (A2A) agent: `task` runs it through the A2A client (src/remote/).
    if (typeof value === "string" && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol))
      draft.url = value;
    else ctx.fail(`${key} must be an absolute http(s) URL`, key);
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
  return loadMarkdownAgent(text, path, options.kind ?? "project", {
    format: options.format ?? "agentry",
    mode: "subagent",
    handlers: HANDLERS,
    name: {},
    promptFile: (draft) => {
      const folder = draft.workspace?.path;
      if (folder === undefined) return undefined;
      const base = options.baseDir ?? join(path, "..");
      return join(isAbsolute(folder) ? folder : join(base, folder), "AGENTS.md");
    },
  });
}
