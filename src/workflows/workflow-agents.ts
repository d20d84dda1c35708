import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { WORKSPACE_MODES } from "../agents/definition.ts";
import type { WorkflowEvent } from "../contracts/workflow-events.ts";
import {
  type ChildRunReport,
  failureReason,
  type ProgramChildren,
  type TaskRequest,
} from "../subagents/index.ts";
import { errorMessage } from "../text/error-message.ts";
import type { ToolContext } from "../tools/tool.ts";
import type { ReplayJournal } from "./replay-journal.ts";
import { isPosition } from "./replay-position.ts";
import { AgentCapReached } from "./workflow-budget.ts";

const INSTRUCTIONS = readFileSync(new URL("./structured-output.md", import.meta.url), "utf8").trim();
const CORRECTION = readFileSync(new URL("./structured-correction.md", import.meta.url), "utf8").trim();

/** How a workflow starts its agents: children of its caller, through the subagent runtime of its tree. */
export type WorkflowChildren = ProgramChildren;

export interface WorkflowAgentsDeps {
  runId: string;
  children: WorkflowChildren;
  journal: ReplayJournal;
  /** The context of the agents of a phase (their place in the tree, the run's signal). */
  contextFor(phase: string | undefined): ToolContext;
  /** The phase `phase()` set last. */
  currentPhase(): string | undefined;
  /** The run's signal: a cancel or a budget stops every call. */
  signal: AbortSignal;
  /** At most this many calls run a child (replays are free); past it the run stops. */
  maxAgents: number | undefined;
  /** Stops the whole run (the agent cap was reached). */
  stop(reason: Error): void;
  onEvent(event: WorkflowEvent): void;
}

type AgentCallEvent = Extract<WorkflowEvent, { type: "workflow_agent" }>;

/** How one call's child ended, as the call sees it. */
type ChildResult =
  | { ok: true; value: unknown; taskId: string }
  | { ok: false; error: string; taskId?: string };

/** What the sandbox gets back for one call. */
type Reply = { ok: true; value: unknown } | { ok: false; error: string; stopped?: boolean };

/**
 * The host side of `agent()`: each call, at the position the prelude gave it, is replayed from the journal when it may
 * be, else runs a child and — with a `schema` — validates its final reply, giving it one corrective
 * turn before failing with the validation error.
 */
export class WorkflowAgents {
  readonly counts = { run: 0, replayed: 0, failed: 0 };
  private readonly deps: WorkflowAgentsDeps;

  constructor(deps: WorkflowAgentsDeps) {
    this.deps = deps;
  }

  /** One `agent()` call, JSON in and out; never rejects. */
  async call(payload: string): Promise<string> {
    const reply = await this.answer(payload).catch(
      (error: unknown): Reply => ({
        ok: false,
        error: errorMessage(error),
      }),
    );
    return JSON.stringify(reply);
  }

  private async answer(payload: string): Promise<Reply> {
    const { deps } = this;
    const call = parseAgentCall(payload);
    const { position } = call;
    const schema = call.schema === undefined ? undefined : compileSchema(call.schema);
    const phase = call.phase ?? deps.currentPhase();
    const label = call.label ?? summary(call.prompt);
    const event = {
      type: "workflow_agent",
      runId: deps.runId,
      position,
      label,
      ...(phase ? { phase } : {}),
    } as const;
    if (deps.signal.aborted) return stopped(deps.signal);
    const key = callKey(call);
    const decision = deps.journal.call(position, key);
    if (decision.kind === "replay") {
      this.counts.replayed++;
      deps.onEvent({ ...event, status: "replayed" });
      return { ok: true, value: decision.value };
    }
    if (deps.maxAgents !== undefined && this.counts.run >= deps.maxAgents) {
      deps.stop(new AgentCapReached(`the workflow's cap of ${deps.maxAgents} agents was reached`));
      return stopped(deps.signal);
    }
    this.counts.run++;
    const ctx = deps.contextFor(phase);
    deps.onEvent({ ...event, status: "started" });
    // A child that cannot start (an unknown agent, a denied permission, the descendant cap) fails the call.
    const result: ChildResult = await this.runChild(call, label, schema, ctx, event).catch(
      (error: unknown) => ({
        ok: false as const,
        error: `agent "${label}" could not start: ${errorMessage(error)}`,
      }),
    );
    if (!result.ok) {
      if (deps.signal.aborted) return stopped(deps.signal);
      this.counts.failed++;
      deps.onEvent({ ...event, status: "failed", error: result.error, ...taskOf(result) });
      return { ok: false, error: result.error };
    }
    await deps.journal.finished(position, key, result.value, result.taskId);
    deps.onEvent({ ...event, status: "completed", ...taskOf(result) });
    return { ok: true, value: result.value };
  }

  private async runChild(
    call: AgentCall,
    label: string,
    schema: OutputSchema | undefined,
    ctx: ToolContext,
    event: Omit<AgentCallEvent, "status">,
  ): Promise<ChildResult> {
    const request: TaskRequest = {
      description: label,
      prompt: schema === undefined ? call.prompt : withOutputInstructions(call.prompt, schema),
      ...(call.agentType === undefined ? {} : { subagentType: call.agentType }),
      ...(call.model === undefined ? {} : { model: call.model }),
      ...(call.tools === undefined ? {} : { tools: call.tools }),
      ...(call.workspace === undefined ? {} : { workspace: call.workspace }),
    };
    let report = await this.deps.children.runToEnd(request, ctx);
    const failed = (report: ChildRunReport) => ({
      ok: false as const,
      error: `agent "${label}" (task_id ${report.taskId}) did not complete: ${failureReason(report)}`,
      taskId: report.taskId,
    });
    if (report.outcome.status !== "completed") return failed(report);
    if (schema === undefined) return { ok: true, value: report.outcome.text, taskId: report.taskId };
    const first = parseOutput(report.outcome.text, schema);
    if (first.ok) return { ok: true, value: first.value, taskId: report.taskId };
    // One corrective turn, in the same child (it keeps what it found), then a clear failure.
    this.deps.onEvent({ ...event, status: "corrected", taskId: report.taskId, error: first.error });
    report = await this.deps.children.continueToEnd(report.taskId, correctionMessage(first.error), ctx);
    if (report.outcome.status !== "completed") return failed(report);
    const second = parseOutput(report.outcome.text, schema);
    if (second.ok) return { ok: true, value: second.value, taskId: report.taskId };
    return {
      ok: false,
      error: `agent "${label}" (task_id ${report.taskId}) returned no valid output after one corrective turn: ${second.error}`,
      taskId: report.taskId,
    };
  }
}

function compileSchema(json: Record<string, unknown>): OutputSchema {
  try {
    return compileOutputSchema(json);
  } catch (error) {
    throw new Error(`agent(prompt, options): ${errorMessage(error)}`);
  }
}

function stopped(signal: AbortSignal): Reply {
  const reason: unknown = signal.reason;
  return {
    ok: false,
    stopped: true,
    error: reason instanceof Error ? reason.message : "the workflow was stopped",
  };
}

function taskOf(result: { taskId?: string }): { taskId?: string } {
  return result.taskId === undefined ? {} : { taskId: result.taskId };
}

/** A label for a call without one: the start of its prompt. */
function summary(prompt: string): string {
  const line = prompt.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

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

/** A JSON Schema of `agent()`'s `schema` option, compiled once per call. */
export interface OutputSchema {
  readonly json: Record<string, unknown>;
  readonly validator: z.ZodType;
}

/** Compiles a JSON Schema; throws with the reason when it is not one we can check. */
export function compileOutputSchema(json: Record<string, unknown>): OutputSchema {
  try {
    return { json, validator: z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]) };
  } catch (error) {
    throw new Error(`its schema is not a JSON Schema agentry can check: ${errorMessage(error)}`);
  }
}

/** The prompt with what the child's final reply must look like. */
export function withOutputInstructions(prompt: string, schema: OutputSchema): string {
  return `${prompt}\n\n${INSTRUCTIONS.replace("{{schema}}", JSON.stringify(schema.json, null, 2))}`;
}

/** The corrective turn's message, after a reply that did not validate. */
export function correctionMessage(error: string): string {
  return CORRECTION.replace("{{error}}", error);
}

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The child's final text as the schema's value: the whole text, or the JSON inside a Markdown fence
 * (models add one despite being told not to), validated.
 */
export function parseOutput(text: string, schema: OutputSchema): Parsed {
  const candidate = unfenced(text.trim());
  let value: unknown;
  try {
    value = JSON.parse(candidate);
  } catch (error) {
    const shown = candidate.length > 200 ? `${candidate.slice(0, 200)}…` : candidate;
    return {
      ok: false,
      error: `it is not JSON (${errorMessage(error)}): ${JSON.stringify(shown)}`,
    };
  }
  const checked = schema.validator.safeParse(value);
  if (checked.success) return { ok: true, value };
  const problems = checked.error.issues.map(
    (issue) => `${issue.path.map(String).join(".") || "(the value)"}: ${issue.message}`,
  );
  return { ok: false, error: `it does not match the schema: ${problems.join("; ")}` };
}

function unfenced(text: string): string {
  const fenced = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n```$/.exec(text);
  return fenced?.[1]?.trim() ?? text;
}
