import { createHash } from "node:crypto";
import { z } from "zod";
import { WORKSPACE_MODES } from "../agents/definition.ts";
import { isPosition } from "./replay-position.ts";

/**
 * The options of `agent(prompt, options)`. Claude Code's keys (`label`, `phase`, `schema`, `model`,
 * `subagent_type`) and ours (`agent`, `tools`, `workspace`); other keys are ignored, so a script
 * written for a newer version still runs.
 */
const agentOptionsSchema = z.looseObject({
  label: z.string().min(1).optional(),
  phase: z.string().min(1).optional(),
  agent: z.string().min(1).optional(),
  subagent_type: z.string().min(1).optional(),
  agentType: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  tools: z.array(z.string().min(1)).optional(),
  workspace: z.enum(WORKSPACE_MODES).optional(),
  schema: z.record(z.string(), z.unknown()).optional(),
});

/** One `agent()` call, its options checked. */
export interface AgentCall {
  /** Its replay position, from the sandbox's prelude (see replay-position.ts). */
  position: string;
  prompt: string;
  label: string | undefined;
  phase: string | undefined;
  agentType: string | undefined;
  model: string | undefined;
  tools: string[] | undefined;
  workspace: (typeof WORKSPACE_MODES)[number] | undefined;
  schema: Record<string, unknown> | undefined;
}

/** Reads what the script passed (JSON from the sandbox); throws a message the script's error shows. */
export function parseAgentCall(payload: string): AgentCall {
  const raw = JSON.parse(payload) as { position?: unknown; prompt?: unknown; options?: unknown };
  if (typeof raw.prompt !== "string") throw new Error("agent(prompt, options): prompt must be a string");
  if (typeof raw.position !== "string" || !isPosition(raw.position)) {
    throw new Error(`internal error: agent() came without a valid replay position (${String(raw.position)})`);
  }
  const parsed = agentOptionsSchema.safeParse(raw.options ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join(".")}: ${issue.message}`,
    );
    throw new Error(`agent(prompt, options): invalid options — ${problems.join("; ")}`);
  }
  const options = parsed.data;
  return {
    position: raw.position,
    prompt: raw.prompt,
    label: options.label,
    phase: options.phase,
    agentType: options.agent ?? options.subagent_type ?? options.agentType,
    model: options.model,
    tools: options.tools,
    workspace: options.workspace,
    schema: options.schema,
  };
}

/**
 * What decides whether a finished call may be replayed: everything that changes what the child is
 * asked or how its answer is checked. The label and phase only change how it is shown.
 */
export function callKey(call: AgentCall): string {
  const { prompt, agentType, model, tools, workspace, schema } = call;
  return createHash("sha256")
    .update(stableJson({ prompt, agentType, model, tools, workspace, schema }))
    .digest("hex")
    .slice(0, 32);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
