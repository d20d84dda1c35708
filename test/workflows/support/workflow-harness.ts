import type { AgentConfig } from "../../../src/agent/config.ts";
import type { AgentEvent } from "../../../src/contracts/events.ts";
import type { Model } from "../../../src/model/model.ts";
import { DEFAULT_RULES } from "../../../src/permissions/defaults.ts";
import type { SubagentOptions } from "../../../src/subagents/tree/subagent-runtime.ts";
import { builtinTools } from "../../../src/tools/builtin.ts";
import { nodeOperations } from "../../../src/tools/node-operations.ts";
import { type RunWorkflowOptions, runWorkflow } from "../../../src/workflows/run-workflow.ts";
import { registryWith } from "../../subagents/support/subagent-harness.ts";

/** A review workflow: N reviewers with a findings schema, each finding verified in a pipeline. */
export const REVIEW_SCRIPT = `export const meta = {
  name: "review",
  description: "Review areas, verify each finding",
  phases: [{ title: "Review" }, { title: "Verify" }],
};
const findings = { type: "object", properties: { findings: { type: "array", items: { type: "string" } } }, required: ["findings"] };
const verdict = { type: "object", properties: { confirmed: { type: "boolean" } }, required: ["confirmed"] };
phase("Review");
const reviews = await parallel(args.areas.map((area) => () => agent("Review " + area, { label: "review " + area, schema: findings })));
phase("Verify");
const all = reviews.filter(Boolean).flatMap((review) => review.findings);
const checked = await pipeline(all, (finding) => agent("Verify: " + finding, { label: "verify " + finding, schema: verdict }));
return { confirmed: all.filter((finding, i) => checked[i] && checked[i].confirmed) };
`;

/** What the model answers a review workflow's child, by its prompt: findings per area, a verdict per finding. */
export function reviewAnswer(prompt: string): string {
  const area = /^Review (\w+)/.exec(prompt)?.[1];
  if (area) return JSON.stringify({ findings: [`${area}-bug`, `${area}-nit`] });
  const finding = /^Verify: (\S+)/.exec(prompt)?.[1];
  if (finding) return JSON.stringify({ confirmed: finding.endsWith("-bug") });
  return "unexpected prompt";
}

export interface WorkflowRun {
  events: AgentEvent[];
  options: Omit<RunWorkflowOptions, "script">;
}

/** A root made of the built-in tools on `model`, bypass mode, the built-in agents. */
export function workflowOptions(
  workspace: string,
  model: Model,
  extra: Partial<SubagentOptions> = {},
): WorkflowRun {
  const events: AgentEvent[] = [];
  const config: AgentConfig = {
    name: "workflow",
    model,
    systemPrompt: "",
    tools: builtinTools(),
    workspace,
    ops: nodeOperations,
  };
  return {
    events,
    options: {
      config,
      subagents: {
        registry: registryWith(),
        createModel: () => model,
        baseTools: () => builtinTools(),
        permission: { rules: DEFAULT_RULES, mode: "bypass" },
        ...extra,
      },
      onEvent: (event) => events.push(event),
    },
  };
}

export { runWorkflow };
