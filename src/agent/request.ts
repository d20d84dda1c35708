import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Usage } from "../model/messages.ts";
import type { ModelRequest, ToolSpec } from "../model/model.ts";
import type { AgentIdentity, AnyTool } from "../tools/tool.ts";
import { applyCompaction } from "./compaction/compact-history.ts";
import { measureContext } from "./compaction/context-size.ts";
import type { AgentConfig } from "./config.ts";
import type { EventBody } from "./emitter.ts";
import { pairToolCalls } from "./session/repair.ts";
import type { Session } from "./session/session.ts";

const WRAP_UP = readFileSync(new URL("./wrap-up.md", import.meta.url), "utf8").trim();

/**
 * Specs by tool: a tool's name, description and schema never change, and children share their
 * parent's tool objects, so a thousand children convert each schema once, not once per run.
 */
const specs = new WeakMap<AnyTool, ToolSpec>();

/**
 * The tool list sent to the model; each JSON Schema is the tool's `inputSchema` when it has one (an MCP
 * tool's, as its server gave it), else it comes from the tool's zod schema.
 */
export function toolSpecs(tools: readonly AnyTool[]): ToolSpec[] {
  return tools.map((tool) => {
    const known = specs.get(tool);
    if (known) return known;
    // Trimmed: descriptions read from .md files end in a newline, sent on every call for nothing.
    const spec = { name: tool.name, description: tool.description.trim(), inputSchema: inputSchemaOf(tool) };
    specs.set(tool, spec);
    return spec;
  });
}

function inputSchemaOf(tool: AnyTool): ToolSpec["inputSchema"] {
  if (tool.inputSchema !== undefined) return tool.inputSchema;
  // "input": fields with defaults are optional for the caller. "$schema" is noise some providers reject.
  const { $schema: _, ...inputSchema } = z.toJSONSchema(tool.schema, { io: "input", unrepresentable: "any" });
  return withoutSafeIntegerBounds(inputSchema);
}

/**
 * zod gives every `.int()` the bounds ±2^53-1, which tell the model nothing and cost tokens on every
 * call; the loop still validates the arguments with the zod schema.
 */
function withoutSafeIntegerBounds<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withoutSafeIntegerBounds) as T;
  if (typeof schema !== "object" || schema === null) return schema;
  const lean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue;
    lean[key] = withoutSafeIntegerBounds(value);
  }
  return lean as T;
}

/**
 * Builds one model request: the system prompt plus the sections of the `beforeModelCall` hooks (and,
 * on the last allowed turn, the wrap-up instruction), the transcript after the hooks' compactions and
 * injected messages were applied and persisted, and the tools less those the hooks hide for this call.
 * What a compaction's summary call used goes to `spend`.
 */
export async function prepareRequest(options: {
  config: AgentConfig;
  session: Session;
  agent: AgentIdentity;
  turn: number;
  lastTurn: boolean;
  tools: ToolSpec[];
  signal: AbortSignal;
  emit: (event: EventBody) => void;
  /** Ends the run after this step (`HookContext.stop`). */
  stop?: (reason: string) => void;
  spend: (usage: Usage) => void;
}): Promise<{ request: ModelRequest; extraTools: AnyTool[] }> {
  const { config, session } = options;
  const base: ModelRequest = {
    system: config.systemPrompt,
    messages: [...session.messages],
    tools: options.tools,
  };
  if (config.temperature !== undefined) base.temperature = config.temperature;
  if (config.maxOutputTokens !== undefined) base.maxOutputTokens = config.maxOutputTokens;

  const sections: string[] = [];
  const hidden = new Set<string>();
  const extraTools: AnyTool[] = [];
  const hookContext = {
    agent: options.agent,
    turn: options.turn,
    signal: options.signal,
    emit: options.emit,
    ...(options.stop === undefined ? {} : { stop: options.stop }),
  };
  for (const hooks of config.hooks ?? []) {
    const result = await hooks.beforeModelCall?.({
      ...hookContext,
      request: base,
      messages: session.messages,
      model: config.model,
      context: () =>
        measureContext({
          system: base.system,
          tools: options.tools,
          messages: session.messages,
          measuredFrom: session.measuredFrom,
        }),
    });
    sections.push(...(result?.systemSections ?? []));
    for (const name of result?.hiddenTools ?? []) hidden.add(name);
    extraTools.push(...(result?.extraTools ?? []));
    if (result?.compaction !== undefined) {
      const decision = result.compaction;
      if (decision.action === "compact")
        for (const observer of config.hooks ?? [])
          await observer.beforeCompaction?.({
            ...hookContext,
            trigger: decision.trigger,
            ...(decision.focus === undefined ? {} : { focus: decision.focus }),
          });
      const done = await applyCompaction(result.compaction, {
        session,
        system: base.system,
        tools: options.tools,
        signal: options.signal,
        emit: options.emit,
      });
      options.spend(done.usage);
    }
    for (const message of result?.inject ?? []) {
      await session.append(message);
      options.emit({ type: "user_message", message });
    }
  }
  if (options.lastTurn) sections.push(WRAP_UP);
  const system = [config.systemPrompt, ...sections].filter((part) => part.trim() !== "").join("\n\n");
  // Sessions the loop wrote are well paired already; one built by hand may not be, and a provider
  // would refuse it (400) on every later call.
  const own = new Set(base.tools.map((tool) => tool.name));
  const extra = extraTools.filter((tool) => !own.has(tool.name) && !hidden.has(tool.name));
  const offered = [...base.tools, ...toolSpecs(extra)];
  const tools = hidden.size === 0 ? offered : offered.filter((tool) => !hidden.has(tool.name));
  return {
    request: { ...base, system, messages: [...pairToolCalls(session.messages)], tools },
    extraTools: extra,
  };
}
