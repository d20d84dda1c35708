// The subagent runtime, as other layers and the library use it: a tree's runtime and its options, the
// limits, a program's children (a workflow's `agent()`), the report of a finished child. What runs a
// child somewhere else (a queue worker, an A2A server) builds on `placement.ts`.

export type { ChildHooksFactory, ChildInstructions, TraceparentFor } from "./child/child-config.ts";
export { isSpawnTool } from "./child/child-config.ts";
export { type ForkMode, forkHistory } from "./child/fork.ts";
export type { ChildRunReport } from "./report/child-run-report.ts";
export { failureReason } from "./report/task-result.ts";
export { spawnableAgents } from "./spawn/spawnable-agents.ts";
export type { CallerScope } from "./tree/caller-scope.ts";
export { DescendantLimitReachedError } from "./tree/child-tree.ts";
export {
  DEFAULT_SUBAGENT_LIMITS,
  type SubagentLimits,
  SubagentLimitsConfigError,
  subagentLimitsSchema,
} from "./tree/limits.ts";
export { type SubagentOptions, SubagentRuntime } from "./tree/subagent-runtime.ts";
export type { ProgramChildren, TaskRequest } from "./tree/task-api.ts";
export { attachSubagents, withSubagents } from "./tree/with-subagents.ts";
