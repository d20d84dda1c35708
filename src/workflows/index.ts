// Workflows, as the library and the CLI use them: running a script (with or without a model in the
// loop), the `workflow` tool on a root, a script's source, plan and saved files, a run's journal, and
// the errors a script or its input may end with.

export { planWorkflow, type WorkflowPlan } from "./plan-workflow.ts";
export { ReplayJournal, type RunHeader } from "./replay-journal.ts";
export { type RunWorkflowOptions, runWorkflow, workflowHost } from "./run-workflow.ts";
export {
  type LoadedWorkflow,
  listSavedWorkflows,
  loadWorkflow,
  type SavedWorkflow,
  savedWorkflowLoader,
} from "./saved-workflows.ts";
export {
  type StartedWorkflow,
  type StartWorkflowOptions,
  startWorkflow,
  type WorkflowHost,
} from "./start-workflow.ts";
export type { WorkflowBudget } from "./workflow-budget.ts";
export { WorkflowInputError, WorkflowSandboxError, WorkflowScriptError } from "./workflow-errors.ts";
export { parseWorkflowSource, type WorkflowMeta, type WorkflowSource } from "./workflow-source.ts";
export { withWorkflows } from "./workflow-tool.ts";
