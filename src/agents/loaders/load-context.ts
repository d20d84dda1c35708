import { basename, extname } from "node:path";
import { classifyToolName } from "../../tools/tool-names.ts";
import {
  AGENT_NAME_PATTERN,
  type AgentDefinition,
  AgentDefinitionSchema,
  CARD_DESCRIPTION,
} from "../definition.ts";
import { type Diagnostic, diagnostic, type Severity } from "../diagnostics.ts";
import { applyLimits, type PermissionLimit } from "./permission-limits.ts";
import { classifyKey, type RestrictionKey, setTwice } from "./restriction-keys.ts";
import { MAX_KEYS } from "./size-limits.ts";

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

/**
 * A definition while a loader fills it in. `permission` holds the file's own rules; `limits` holds
 * rules that other keys imply (`Bash(git diff:*)` in `tools`, `sandbox_mode = "read-only"`), which
 * `finish` puts after the file's rules so that no `permission` entry can lift them.
 */
export type Draft = { -readonly [K in keyof AgentDefinition]?: AgentDefinition[K] } & {
  limits?: PermissionLimit[];
  /** A `capabilities` list: words about the agent, added to its description by `finish`. */
  capabilities?: string[];
};

/** Collects the diagnostics of one file; `skip` marks the file as unusable. */
export class LoadContext {
  readonly file: string;
  readonly diagnostics: Diagnostic[] = [];
  private readonly keyLines: Record<string, number>;
  private readonly subject: string | undefined;
  private skipped = false;

  /**
   * `subject` names the agent in every message when a file holds several (`agent "review"` of an
   * opencode.json); `keyLines` gives the line of each key.
   */
  constructor(
    file: string,
    keyLines: Record<string, number> = {},
    diagnostics: readonly Diagnostic[] = [],
    subject?: string,
  ) {
    this.file = file;
    this.keyLines = keyLines;
    this.subject = subject;
    for (const problem of diagnostics) this.diagnostics.push(problem);
    if (diagnostics.some((d) => d.severity === "error")) this.skipped = true;
  }

  get isSkipped(): boolean {
    return this.skipped;
  }

  report(severity: Severity, message: string, action: string, key?: string): void {
    const line = key === undefined ? undefined : (this.keyLines[key] ?? this.keyLines[""]);
    const text = this.subject === undefined ? message : `${this.subject}: ${message}`;
    this.diagnostics.push(diagnostic(severity, this.file, text, action, line));
  }

  /** An error that makes the file unusable: loading it anyway could grant more than its author meant. */
  fail(message: string, key?: string): void {
    this.skipped = true;
    this.report("error", message, "skipped the file", key);
  }

  /** The file asks not to be loaded (`disable: true`): skipped, but not a problem. */
  disable(message: string, key?: string): void {
    this.skipped = true;
    this.report("info", message, "skipped the file", key);
  }

  /** A key we read but cannot honour or do not know. */
  ignore(key: string, why: string, severity: Severity = "warning"): void {
    this.report(severity, `${key}: ${why}`, `ignored key ${key}`, key);
  }
}

export type KeyHandler = (value: unknown, draft: Draft, ctx: LoadContext, key: string) => void;

/**
 * Runs the handler of each front matter key. A restriction spelled another harness's way
 * (`allowed-tools`, `permissions`, `sandbox`) runs the handler of its canonical key; one we cannot
 * place, or the same restriction given twice, fails the file; other unknown keys are warnings.
 */
export function applyKeys(
  data: Record<string, unknown>,
  handlers: Readonly<Record<string, KeyHandler>>,
  draft: Draft,
  ctx: LoadContext,
): void {
  const entries = Object.entries(data);
  if (entries.length > MAX_KEYS) {
    ctx.fail(`the file has ${entries.length} keys; agentry reads agent files of up to ${MAX_KEYS}`);
    return;
  }
  const restrictedBy = new Map<RestrictionKey, string>();
  for (const [key, value] of entries) {
    const meaning = classifyKey(key);
    if (meaning.kind === "restriction") {
      const earlier = restrictedBy.get(meaning.canonical);
      if (earlier !== undefined) {
        // Keys of an object are unique: these are two spellings (a key written twice is the parser's error).
        ctx.fail(setTwice([earlier, key], meaning.canonical), key);
        continue;
      }
      restrictedBy.set(meaning.canonical, key);
    }
    const own = Object.hasOwn(handlers, key) ? handlers[key] : undefined;
    if (own !== undefined) {
      own(value, draft, ctx, key);
      continue;
    }
    const canonical =
      meaning.kind === "restriction" && Object.hasOwn(handlers, meaning.canonical)
        ? handlers[meaning.canonical]
        : undefined;
    if (canonical !== undefined && meaning.kind === "restriction") {
      ctx.report("info", `${key} is read as ${meaning.canonical}`, `applied it as ${meaning.canonical}`, key);
      canonical(value, draft, ctx, key);
    } else if (meaning.kind === "descriptive") {
      capabilities(value, draft, ctx, key);
    } else if (meaning.kind === "other") {
      ctx.ignore(key, "unknown key");
    } else if (meaning.kind === "restriction-like" && meaning.imitates !== undefined) {
      ctx.fail(
        `${key} is written with letters outside ASCII and reads as "${meaning.imitates}", a key that limits the agent; a harness that reads keys as written ignores it, so the agent would get more than the file appears to allow (write the key in plain ASCII)`,
        key,
      );
    } else {
      ctx.fail(
        `${key} looks like it limits the agent, but agentry cannot read it; ignoring it could give the agent more than the file allows (remove or rename the key; see docs/agent-files.md)`,
        key,
      );
    }
  }
}

/**
 * `capabilities: [security_assessment, code-review]` (Claude Code plugin agents and collections built on
 * them): what the agent is good at, which limits nothing. It is added to the description, where the
 * parent reads it when it picks an agent. A list that names tools (`[Read, Grep]`) may be meant as a
 * limit, and one of maps (`- network_access: none`) may hold one: agentry cannot tell, so the file fails.
 */
const capabilities: KeyHandler = (value, draft, ctx, key) => {
  const items = typeof value === "string" ? value.split(",") : value;
  if (!Array.isArray(items) || !items.every((item) => typeof item === "string")) {
    return ctx.fail(
      `${key} is not a list of words: its entries may limit what the agent may do, which agentry cannot read (write it as a list of what the agent is good at, or remove it)`,
      key,
    );
  }
  const words = items.map((item: string) => item.trim()).filter((item) => item !== "");
  const tools = words.filter((word) => classifyToolName(word).kind !== "unknown");
  if (tools.length > 0) {
    return ctx.fail(
      `${key} names tools (${tools.join(", ")}): it may be meant to limit the agent to them, which agentry cannot tell (list them under tools, or remove them)`,
      key,
    );
  }
  if (words.length === 0) return;
  draft.capabilities = [...(draft.capabilities ?? []), ...words];
  ctx.report("info", `${key} describes the agent and limits nothing`, "added it to the description", key);
};

/** The file name without its extension: `a/b/code-reviewer.md` → `code-reviewer`. */
export function fileStem(path: string): string {
  return basename(path, extname(path));
}

export interface NameOptions {
  /** The name is given by the file's structure (an opencode.json `agent` key, a Codex role table). */
  given?: boolean;
  /** Formats whose files normally carry `name` (Claude, Codex) note when it is missing. */
  nameExpected?: boolean;
}

/**
 * Settles the agent's name: the `name` key when given, else the file stem. Names that are not
 * filename-safe are turned into slugs with a warning, because they become path segments later.
 */
export function resolveName(raw: unknown, path: string, ctx: LoadContext, options: NameOptions = {}): string {
  const stem = fileStem(path);
  let candidate = stem;
  if (raw !== undefined && raw !== null) {
    if (typeof raw === "string" && raw.trim() !== "") candidate = raw.trim();
    else ctx.ignore("name", "not a non-empty string");
  }
  let name = candidate;
  if (!AGENT_NAME_PATTERN.test(candidate)) {
    name = slugify(candidate);
    if (!AGENT_NAME_PATTERN.test(name) && candidate !== stem && options.given !== true) name = slugify(stem);
    if (!AGENT_NAME_PATTERN.test(name)) {
      ctx.fail(`cannot make an agent name out of "${candidate}"`, "name");
      return candidate;
    }
    ctx.report("warning", `"${candidate}" is not a valid agent name`, `used "${name}" as name`, "name");
  }
  if (options.given === true) return name;
  if (raw === undefined && options.nameExpected === true) {
    ctx.report("info", "no name key", `used the file stem "${name}" as name`);
  } else if (name !== stem) {
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
  const { limits, ...fields } = draft;
  if (limits !== undefined && limits.length > 0) {
    const permission = applyLimits(fields.permission, limits);
    if (typeof permission === "string") {
      ctx.fail(permission, limits[0]?.key);
      return { diagnostics: ctx.diagnostics };
    }
    fields.permission = permission;
  }
  if ((fields.description === undefined || fields.description.trim() === "") && fields.url !== undefined) {
    // A remote agent describes itself: a run reads its card's description (`CARD_DESCRIPTION`).
    fields.description = CARD_DESCRIPTION;
  } else if (fields.description === undefined || fields.description.trim() === "") {
    ctx.fail("no description: the parent agent picks subagents by their description", "description");
    return { diagnostics: ctx.diagnostics };
  }
  if (fields.capabilities !== undefined) {
    fields.description = `${fields.description}\n\nCapabilities: ${fields.capabilities.join(", ")}.`;
    delete fields.capabilities;
  }
  // A remote agent's prompt lives on its server: none here is expected.
  if ((fields.prompt ?? "") === "" && promptFile === undefined && fields.url === undefined) {
    ctx.report("warning", "empty prompt", "the agent runs with only the harness preamble");
  }
  const parsed = AgentDefinitionSchema.safeParse(fields);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "definition"}: ${i.message}`);
    ctx.fail(`invalid definition (${issues.join("; ")})`);
    return { diagnostics: ctx.diagnostics };
  }
  return promptFile === undefined
    ? { definition: parsed.data, diagnostics: ctx.diagnostics }
    : { definition: parsed.data, diagnostics: ctx.diagnostics, promptFile };
}
