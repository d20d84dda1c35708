import { AgentryError } from "../errors/agentry-error.ts";
import { mapToolNames } from "../tools/tool-names.ts";
import {
  type AgentDefinition,
  type AgentDefinitionInput,
  AgentDefinitionInputSchema,
  AgentDefinitionSchema,
  type AgentMode,
} from "./definition.ts";
import { type Diagnostic, diagnostic } from "./diagnostics.ts";
import type { LoadedAgents } from "./discover.ts";
import { normalizeModel } from "./loaders/fields.ts";
import { classifyKey, restrictionOf } from "./loaders/restriction-keys.ts";

/** A bad `--agents` value or programmatic definition: the user has to fix it now, so it throws. */
export class AgentDefinitionError extends AgentryError {
  override readonly name = "AgentDefinitionError";
  readonly kind = "user";
}

export interface ListOptions {
  /** `subagent` lists agents callable through `task` (mode subagent or all); `primary` the top-level ones. */
  mode?: AgentMode;
}

/**
 * The agents one run can use, one per name. Start it from `loadAgentDefinitions()` (files and built-ins);
 * `register()` and `fromJson()` add programmatic agents, which take precedence over everything else.
 */
export class AgentRegistry {
  private readonly byName = new Map<string, AgentDefinition>();
  private readonly problems: Diagnostic[] = [];

  constructor(loaded: Partial<LoadedAgents> = {}) {
    for (const definition of loaded.definitions ?? []) this.byName.set(definition.name, definition);
    for (const problem of loaded.diagnostics ?? []) this.problems.push(problem);
  }

  /** `--agents '{"reviewer": {"description": "…", "prompt": "…", "tools": ["Read"]}}'` on top of `loaded`. */
  static fromJson(json: string, loaded: Partial<LoadedAgents> = {}, origin = "--agents"): AgentRegistry {
    const registry = new AgentRegistry(loaded);
    for (const input of parseAgentsJson(json, origin)) registry.register(input, origin);
    return registry;
  }

  /**
   * Adds or replaces an agent. Tool names from any harness are mapped to ours; unknown ones are dropped
   * and reported in `diagnostics`. Throws `AgentDefinitionError` when the definition is invalid.
   */
  register(input: AgentDefinitionInput, origin = "programmatic"): AgentDefinition {
    const parsed = AgentDefinitionInputSchema.safeParse(this.canonicalKeys(input, origin));
    if (!parsed.success) {
      const label =
        typeof (input as { name?: unknown }).name === "string" ? `agent "${input.name}"` : "agent";
      throw new AgentDefinitionError(`${origin}: invalid ${label}: ${describeIssues(parsed.error.issues)}`);
    }
    const { tools, disallowedTools, model, ...rest } = parsed.data;
    const resolvedModel = model === undefined ? undefined : normalizeModel(model).model;
    const definition: AgentDefinition = AgentDefinitionSchema.parse({
      ...rest,
      ...(resolvedModel === undefined ? {} : { model: resolvedModel }),
      ...(tools === undefined ? {} : { tools: this.mapTools(tools, rest.name, origin) }),
      ...(disallowedTools === undefined ? {} : { disallowedTools: mapToolNames(disallowedTools).tools }),
      mode: rest.mode ?? "subagent",
      source: rest.source ?? { kind: "programmatic", format: "agentry" },
    });
    const previous = this.byName.get(definition.name);
    if (previous !== undefined) {
      this.problems.push(
        diagnostic(
          "info",
          origin,
          `agent "${definition.name}" replaces the ${previous.source.kind} one${previous.source.path === undefined ? "" : ` from ${previous.source.path}`}`,
          `kept the ${origin} definition`,
        ),
      );
    }
    this.byName.set(definition.name, definition);
    return definition;
  }

  /** Exact name first; then a unique case-insensitive match (models write `Explore`). */
  get(name: string): AgentDefinition | undefined {
    const exact = this.byName.get(name);
    if (exact !== undefined) return exact;
    const matches = [...this.byName.values()].filter((d) => d.name.toLowerCase() === name.toLowerCase());
    return matches.length === 1 ? matches[0] : undefined;
  }

  /** Sorted by name. Hidden agents are included: `hidden` only keeps them out of pickers. */
  list(options: ListOptions = {}): AgentDefinition[] {
    const wanted = options.mode;
    return [...this.byName.values()]
      .filter((d) => wanted === undefined || d.mode === wanted || d.mode === "all")
      .sort((a, b) => byName(a.name, b.name));
  }

  get diagnostics(): readonly Diagnostic[] {
    return this.problems;
  }

  /**
   * The definition with restrictions under their canonical names (`allowedTools` → `tools`,
   * `permissions` → `permission`), as in agent files. A restriction it cannot take (one named twice,
   * an unknown restriction-like key, a file-only limit such as `sandbox_mode`) throws rather than being
   * dropped, which would give the agent its parent's full tools; other unknown keys are warnings.
   */
  private canonicalKeys(input: AgentDefinitionInput, origin: string): Record<string, unknown> {
    const known = new Set(Object.keys(AgentDefinitionInputSchema.shape));
    const out: Record<string, unknown> = {};
    const label = typeof input.name === "string" ? `agent "${input.name}"` : "agent";
    for (const [key, value] of Object.entries(input)) {
      if (known.has(key)) {
        if (Object.hasOwn(out, key))
          throw new AgentDefinitionError(`${origin}: ${label}: ${key} is given twice`);
        out[key] = value;
        continue;
      }
      const meaning = classifyKey(key);
      if (meaning.kind === "other") {
        this.problems.push(
          diagnostic("warning", origin, `${label}: unknown key ${key}`, `ignored key ${key}`),
        );
        continue;
      }
      const canonical = meaning.kind === "restriction" ? meaning.canonical : undefined;
      if (canonical === undefined || !known.has(canonical)) {
        throw new AgentDefinitionError(
          `${origin}: ${label}: ${key} looks like a limit, but agentry cannot apply it here; use tools, disallowedTools or permission`,
        );
      }
      if (Object.hasOwn(out, canonical) || Object.hasOwn(input, canonical)) {
        throw new AgentDefinitionError(
          `${origin}: ${label}: ${key} and ${canonical} both set ${canonical}; write it once`,
        );
      }
      out[canonical] = value;
    }
    return out;
  }

  private mapTools(names: string[], agent: string, origin: string): string[] {
    const { tools, unknown } = mapToolNames(names);
    for (const name of unknown) {
      this.problems.push(
        diagnostic(
          "warning",
          origin,
          `agent "${agent}": unknown tool ${name}`,
          `dropped unknown tool ${name}`,
        ),
      );
    }
    return tools;
  }
}

/**
 * Claude Code's `--agents` shape (`{ name: { description, prompt, tools, model } }`) or an array of
 * definitions with `name`. Throws `AgentDefinitionError` with the position of a JSON syntax error.
 */
export function parseAgentsJson(json: string, origin = "--agents"): AgentDefinitionInput[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new AgentDefinitionError(`${origin}: not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== "object" || value === null) {
    throw new AgentDefinitionError(`${origin}: expected an object mapping agent names to definitions`);
  }
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((body, index) => [`#${index + 1}`, body])
    : Object.entries(value).map(([name, body]) => [name, isRecord(body) ? { ...body, name } : body]);
  return entries.map(([label, body]) => {
    if (!isRecord(body)) {
      throw new AgentDefinitionError(
        `${origin}: agent ${label} must be an object with description and prompt`,
      );
    }
    // Claude Code users also write `"tools": "Read, Grep"` (under any spelling of tools).
    const split = (v: unknown): unknown => (typeof v === "string" ? v.split(",").map((s) => s.trim()) : v);
    const listKey = (key: string): boolean => {
      const canonical = restrictionOf(key);
      return canonical === "tools" || canonical === "disallowedTools";
    };
    return Object.fromEntries(
      Object.entries(body).map(([key, value]) => [key, listKey(key) ? split(value) : value]),
    ) as AgentDefinitionInput;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues.map((i) => `${i.path.map(String).join(".") || "definition"}: ${i.message}`).join("; ");
}

/**
 * Case-insensitive by code point, lower case first between names that differ only in case: close to
 * `localeCompare` for the names agents have (punctuation aside), without loading ICU's collation data
 * into every run (~3 MB of RSS).
 */
function byName(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a === b ? 0 : a < b ? 1 : -1;
}
