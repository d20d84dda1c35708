import { basename, extname } from "node:path";
import { AGENT_NAME_PATTERN, type AgentDefinition, AgentDefinitionSchema } from "../definition.ts";
import { type Diagnostic, diagnostic, type Severity } from "../diagnostics.ts";

/** What every loader returns. A loader never throws: problems become diagnostics. */
export interface LoadResult {
  /** Absent when the file was skipped (see the `error` diagnostics). */
  definition?: AgentDefinition;
  diagnostics: Diagnostic[];
  /**
   * Set when the prompt lives in another file (AgentScope's `workspace.path` folder's `AGENTS.md`).
   * Loaders are pure, so discovery reads it and appends it to the prompt.
   */
  promptFile?: string;
}

/** A definition while a loader fills it in. */
export type Draft = { -readonly [K in keyof AgentDefinition]?: AgentDefinition[K] };

/** Collects the diagnostics of one file; `skip` marks the file as unusable. */
export class LoadContext {
  readonly file: string;
  readonly diagnostics: Diagnostic[] = [];
  private readonly keyLines: Record<string, number>;
  private skipped = false;

  constructor(file: string, keyLines: Record<string, number> = {}, diagnostics: readonly Diagnostic[] = []) {
    this.file = file;
    this.keyLines = keyLines;
    this.diagnostics.push(...diagnostics);
    if (diagnostics.some((d) => d.severity === "error")) this.skipped = true;
  }

  get isSkipped(): boolean {
    return this.skipped;
  }

  report(severity: Severity, message: string, action: string, key?: string): void {
    const line = key === undefined ? undefined : this.keyLines[key];
    this.diagnostics.push(diagnostic(severity, this.file, message, action, line));
  }

  /** An error that makes the file unusable: loading it anyway could grant more than its author meant. */
  fail(message: string, key?: string): void {
    this.skipped = true;
    this.report("error", message, "skipped the file", key);
  }

  /** A key we read but cannot honour or do not know. */
  ignore(key: string, why: string, severity: Severity = "warning"): void {
    this.report(severity, `${key}: ${why}`, `ignored key ${key}`, key);
  }
}

export type KeyHandler = (value: unknown, draft: Draft, ctx: LoadContext, key: string) => void;

/** Runs the handler of each front matter key; keys without one are reported as unknown. */
export function applyKeys(
  data: Record<string, unknown>,
  handlers: Readonly<Record<string, KeyHandler>>,
  draft: Draft,
  ctx: LoadContext,
): void {
  for (const [key, value] of Object.entries(data)) {
    const handler = Object.hasOwn(handlers, key) ? handlers[key] : undefined;
    if (handler === undefined) ctx.ignore(key, "unknown key");
    else handler(value, draft, ctx, key);
  }
}

/** The file name without its extension: `a/b/code-reviewer.md` → `code-reviewer`. */
export function fileStem(path: string): string {
  return basename(path, extname(path));
}

export interface NameOptions {
  /** OpenCode: the file stem is the name and a `name` key is not consulted. */
  stemIsIdentity?: boolean;
  /** Formats whose files normally carry `name` (Claude, Codex) note when it is missing. */
  nameExpected?: boolean;
}

/**
 * Settles the agent's name: the `name` key when given, else the file stem. Names that are not
 * filename-safe are turned into slugs with a warning, because they become path segments later.
 */
export function resolveName(raw: unknown, path: string, ctx: LoadContext, options: NameOptions = {}): string {
  const stemIsIdentity = options.stemIsIdentity === true;
  const stem = fileStem(path);
  let candidate = stem;
  if (raw !== undefined && raw !== null && !stemIsIdentity) {
    if (typeof raw === "string" && raw.trim() !== "") candidate = raw.trim();
    else ctx.ignore("name", "not a non-empty string");
  }
  let name = candidate;
  if (!AGENT_NAME_PATTERN.test(candidate)) {
    name = slugify(candidate);
    if (!AGENT_NAME_PATTERN.test(name) && candidate !== stem) name = slugify(stem);
    if (!AGENT_NAME_PATTERN.test(name)) {
      ctx.fail(`cannot make an agent name out of "${candidate}"`, "name");
      return candidate;
    }
    ctx.report("warning", `"${candidate}" is not a valid agent name`, `used "${name}" as name`, "name");
  }
  if (raw === undefined && options.nameExpected === true) {
    ctx.report("info", "no name key", `used the file stem "${name}" as name`);
  } else if (name !== stem && !stemIsIdentity) {
    ctx.report(
      "info",
      `name "${name}" differs from the file name "${stem}"`,
      `named the agent "${name}"`,
      "name",
    );
  }
  return name;
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .replace(/-+$/, "")
    .slice(0, 64);
}

/** Validates the finished draft; a definition that still fails the schema is reported, not thrown. */
export function finish(draft: Draft, ctx: LoadContext, promptFile?: string): LoadResult {
  if (ctx.isSkipped) return { diagnostics: ctx.diagnostics };
  if (draft.description === undefined || draft.description.trim() === "") {
    ctx.fail("no description: the parent agent picks subagents by their description", "description");
    return { diagnostics: ctx.diagnostics };
  }
  if ((draft.prompt ?? "") === "" && promptFile === undefined) {
    ctx.report("warning", "empty prompt", "the agent runs with only the harness preamble");
  }
  const parsed = AgentDefinitionSchema.safeParse(draft);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "definition"}: ${i.message}`);
    ctx.fail(`invalid definition (${issues.join("; ")})`);
    return { diagnostics: ctx.diagnostics };
  }
  return promptFile === undefined
    ? { definition: parsed.data, diagnostics: ctx.diagnostics }
    : { definition: parsed.data, diagnostics: ctx.diagnostics, promptFile };
}
