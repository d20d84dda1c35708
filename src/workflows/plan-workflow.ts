import { errorMessage } from "../text/error-message.ts";
import { runScript } from "./script-sandbox.ts";
import { parseAgentCall } from "./workflow-agents.ts";
import type { WorkflowSource } from "./workflow-source.ts";

/** What a workflow would do, found without a model: its phases and how many agents it starts. */
export interface WorkflowPlan {
  name: string;
  description: string;
  /** Its declared phases, then any other the script entered. */
  phases: { title: string; detail?: string | undefined; agents: number }[];
  /** Agent calls the dry run counted (outside any phase included). */
  agents: number;
  /**
   * The dry run's agents answer with the least their schema allows (empty arrays, `""`), so work that
   * fans out over their results is not counted: the real run may start more.
   */
  lowerBound: true;
  /** The script failed on the placeholder answers; the counts are what it did until then. */
  stoppedEarly?: string;
}

/**
 * Runs the script in its sandbox with agents that answer at once with placeholders (the smallest
 * value their schema accepts), counting the calls per phase. Spends no tokens and starts nothing.
 */
export async function planWorkflow(source: WorkflowSource, args: unknown): Promise<WorkflowPlan> {
  const phases = new Map<string, WorkflowPlan["phases"][number]>();
  for (const phase of source.meta.phases) {
    phases.set(phase.title, { ...phase, agents: 0 });
  }
  let current: string | undefined;
  let agents = 0;
  let stoppedEarly: string | undefined;
  try {
    await runScript(
      source.body,
      {
        args: args ?? null,
        agent: async (payload) => {
          const call = parseAgentCall(payload);
          agents++;
          const phase = call.phase ?? current;
          if (phase !== undefined) {
            const entry = phases.get(phase) ?? { title: phase, agents: 0 };
            entry.agents++;
            phases.set(phase, entry);
          }
          return JSON.stringify({
            ok: true,
            value: call.schema === undefined ? "" : placeholder(call.schema),
          });
        },
        phase: (title) => {
          current = title;
          if (!phases.has(title)) phases.set(title, { title, agents: 0 });
        },
        log: () => {},
        failure: () => {},
      },
      { signal: AbortSignal.timeout(30_000), filename: source.origin },
    );
  } catch (error) {
    stoppedEarly = errorMessage(error);
  }
  return {
    name: source.meta.name,
    description: source.meta.description,
    phases: [...phases.values()],
    agents,
    lowerBound: true,
    ...(stoppedEarly === undefined ? {} : { stoppedEarly }),
  };
}

/** The least value a JSON Schema accepts, for the common shapes. */
function placeholder(schema: unknown): unknown {
  if (schema === null || typeof schema !== "object") return null;
  const {
    type,
    properties,
    required,
    enum: choices,
    const: constant,
    default: fallback,
  } = schema as Record<string, unknown>;
  if (constant !== undefined) return constant;
  if (fallback !== undefined) return fallback;
  if (Array.isArray(choices)) return choices[0] ?? null;
  const kind = Array.isArray(type) ? type[0] : type;
  switch (kind) {
    case "object": {
      const shape = (properties ?? {}) as Record<string, unknown>;
      const needed = Array.isArray(required) ? required.map(String) : [];
      return Object.fromEntries(needed.map((key) => [key, placeholder(shape[key])]));
    }
    case "array":
      return [];
    case "string":
      return "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    default:
      return null;
  }
}
