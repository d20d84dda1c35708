/**
 * agentry's public library API. Contracts (messages, model, tools, permissions, events, outcomes,
 * hooks) plus the pieces that build and run an agent, its subagents and their task records. Test
 * doubles live in `agentry-ai/testing`.
 */

// Agent: the loop, sessions and transcripts.
export {
  applyCompaction,
  type CompactionResult,
  isCompactionRequest,
} from "./agent/compaction/compact-history.ts";
export { type CompactSessionOptions, compactSession } from "./agent/compaction/compact-session.ts";
export {
  type CompactionDecision,
  type CompactionOptions,
  DEFAULT_COMPACTION_THRESHOLD,
  DEFAULT_KEEP_TURNS,
} from "./agent/compaction/compaction.ts";
export { compactionHooks } from "./agent/compaction/compaction-hooks.ts";
export { type ContextSize, measureContext, type PromptParts } from "./agent/compaction/context-size.ts";
export type { AgentConfig } from "./agent/config.ts";
export { DEFAULT_MAX_TURNS, DEFAULT_TOOL_OUTPUT_LIMIT } from "./agent/config.ts";
export type {
  BeforeModelCallContext,
  BeforeModelCallResult,
  HookContext,
  Hooks,
  ToolDecision,
  TurnEndResult,
} from "./agent/hooks.ts";
export { type RunLimit, RunLimitExceeded, type RunLimits } from "./agent/limits/run-limits.ts";
export { type TreeBudget, type TreeBudgetWatch, watchTreeBudget } from "./agent/limits/tree-budget.ts";
export { runAgentLoop } from "./agent/loop.ts";
export { type AgentRun, runAgent } from "./agent/run.ts";
export { pairToolCalls } from "./agent/session/repair.ts";
export {
  type CreateSessionOptions,
  type ResumeSessionOptions,
  Session,
  SessionExistsError,
  SessionNotFoundError,
} from "./agent/session/session.ts";
export { InvalidSessionIdError, isValidSessionId, newSessionId } from "./agent/session/session-id.ts";
export { SessionBusyError, type SessionLock } from "./agent/session/session-lock.ts";
export { type SessionTreeUsage, sessionTreeUsage } from "./agent/session/session-tree.ts";
export {
  type DamagedSession,
  type ListSessionsOptions,
  listSessions,
  parseTranscript,
  readTranscript,
  type SessionSummary,
  type Transcript,
  TranscriptFormatError,
  type TranscriptHistory,
  transcriptHistory,
  transcriptMessages,
} from "./agent/session/transcript.ts";
export type {
  CompactionRecord,
  TranscriptEntry,
  TranscriptHeader,
} from "./agent/session/transcript-schema.ts";
export { TRANSCRIPT_VERSION } from "./agent/session/transcript-schema.ts";
export { buildSystemPrompt, type SystemPromptOptions } from "./agent/system-prompt.ts";
export { createRedactor, type Redactor } from "./agent/tool-calls/redact.ts";
// Agents: definitions, where they come from, and what was wrong with them.
export { AgentDefinitionError, AgentRegistry, parseAgentsJson } from "./agents/agent-registry.ts";
export { builtinAgents } from "./agents/builtin-agents.ts";
export {
  type AgentDefinition,
  type AgentDefinitionInput,
  AgentDefinitionSchema,
  type AgentFormat,
  type AgentMode,
  type AgentPermissionConfig,
  type AgentSource,
  type AgentSourceKind,
  type WorkspaceMode,
} from "./agents/definition.ts";
export { type Diagnostic, formatDiagnostics, hasErrors } from "./agents/diagnostics.ts";
export { type DiscoverOptions, type LoadedAgents, loadAgentDefinitions } from "./agents/discover.ts";
export { type LoadAgentFileOptions, loadAgentFile } from "./agents/loaders/load-agent-file.ts";
// Contracts: what a run reports and how it ends; errors sorted by fault.
export type {
  AgentEvent,
  AgentEventType,
  CompactionFailure,
  CompactionTrigger,
  EventOf,
} from "./contracts/events.ts";
export { EVENT_SCHEMA_VERSION } from "./contracts/events.ts";
export type { Budget, Outcome, OutcomeBase, OutcomeEnd, OutcomeStatus } from "./contracts/outcome.ts";
export type { WorkflowEvent, WorkflowOutcome, WorkflowStatus } from "./contracts/workflow-events.ts";
export {
  AgentryError,
  ERROR_KINDS,
  type ErrorKind,
  errorKind,
  isAgentryError,
} from "./errors/agentry-error.ts";
// Models.
export {
  AdaptiveLimiter,
  type CallResult,
  type CapacityWait,
  DEFAULT_LIMITER_OPTIONS,
  type LimiterOptions,
  type LimiterState,
  type Permit,
} from "./model/adaptive-limiter.ts";
export { takesImages } from "./model/capabilities.ts";
export type {
  CallFeedback,
  CapacityWaitReason,
  FeedbackSource,
  RateLimits,
  RateWindow,
} from "./model/capacity.ts";
export { CONTEXT_WINDOWS, contextWindowOf, DEFAULT_CONTEXT_WINDOW } from "./model/context-windows.ts";
export { ModelConfigError } from "./model/errors.ts";
export { PushModelStream } from "./model/event-stream.ts";
export { type ImageInfo, imagePartOf, sniffImage } from "./model/images.ts";
export {
  type AssistantMessage,
  addUsage,
  assistantText,
  emptyUsage,
  type ImagePart,
  type Message,
  type ReasoningPart,
  type StopReason,
  type TextPart,
  type ToolCallPart,
  type ToolResultMessage,
  type ToolResultPart,
  toolCalls,
  type Usage,
  type UserMessage,
  userMessage,
  userText,
} from "./model/messages.ts";
export type { JsonSchema, Model, ModelEvent, ModelRequest, ModelStream, ToolSpec } from "./model/model.ts";
export { ModelLimiters } from "./model/model-limiters.ts";
export { type ModelPrice, PRICES } from "./model/pricing.ts";
export {
  type CreateModelOptions,
  createModel,
  DEFAULT_MODELS,
  defaultModelId,
  type ModelSettings,
} from "./model/registry.ts";
export { type RetryOptions, withRetry } from "./model/retry.ts";
export { type LimitedModelOptions, withLimiter } from "./model/with-limiter.ts";
// Permissions.
export { bashPermissionPatterns } from "./permissions/bash-command.ts";
export { DEFAULT_RULES } from "./permissions/defaults.ts";
export { evaluate } from "./permissions/evaluate.ts";
export {
  type AskAnswer,
  type AskHandler,
  type AskRequest,
  createPermissionGate,
  PERMISSION_MODES,
  type PermissionGate,
  type PermissionGateOptions,
  type PermissionMode,
  type RejectWithMessage,
} from "./permissions/gate.ts";
export { PermissionConfigError, rulesetFromConfig } from "./permissions/ruleset-from-config.ts";
export {
  type PermissionAction,
  PermissionDeniedError,
  type PermissionRequest,
  type PermissionRule,
  type Ruleset,
} from "./permissions/types.ts";
// Subagents: the runtime that gives an agent the task tools.
export {
  attachSubagents,
  DEFAULT_SUBAGENT_LIMITS,
  DescendantLimitReachedError,
  type ForkMode,
  forkHistory,
  type SubagentLimits,
  SubagentLimitsConfigError,
  type SubagentOptions,
  type SubagentRuntime,
  withSubagents,
} from "./subagents/index.ts";
// Task records: the control plane's store (background children, cross-process cancel, recovery).
export { type SweepOptions, type SweepReport, sweepOrphans } from "./tasks/sweeper.ts";
export {
  IllegalTransitionError,
  LockTimeoutError,
  TaskExistsError,
  TaskFileError,
  TaskNotFoundError,
  TaskStoreError,
} from "./tasks/task-errors.ts";
export {
  type NewTaskRecord,
  TASK_STATUSES,
  type TaskPatch,
  type TaskReason,
  type TaskRecord,
  type TaskStatus,
} from "./tasks/task-record.ts";
export type { TaskListQuery, TaskStore, TaskUpdate, UpdateOptions } from "./tasks/task-store.ts";
export {
  WorkspaceTaskStore,
  type WorkspaceTaskStoreOptions,
} from "./tasks/workspace/workspace-task-store.ts";
// Tools.
export { bashTool } from "./tools/bash/bash.ts";
export { builtinTools } from "./tools/builtin.ts";
export { editTool } from "./tools/edit/edit.ts";
export { globTool } from "./tools/glob/glob.ts";
export { grepTool } from "./tools/grep/grep.ts";
export { listTool } from "./tools/list/list.ts";
export { nodeOperations } from "./tools/node-operations.ts";
export type { DirEntry, ExecOptions, ExecResult, FileStat, Operations } from "./tools/operations.ts";
export { readTool } from "./tools/read/read.ts";
export {
  type AgentIdentity,
  type AnyTool,
  defineTool,
  type Tool,
  type ToolContext,
  ToolError,
  type ToolResult,
} from "./tools/tool.ts";
export { writeTool } from "./tools/write/write.ts";
// Workflows: confined scripts that orchestrate subagents.
export {
  listSavedWorkflows,
  loadWorkflow,
  parseWorkflowSource,
  planWorkflow,
  type RunWorkflowOptions,
  runWorkflow,
  type SavedWorkflow,
  type StartedWorkflow,
  type StartWorkflowOptions,
  startWorkflow,
  type WorkflowBudget,
  type WorkflowHost,
  WorkflowInputError,
  type WorkflowMeta,
  type WorkflowPlan,
  WorkflowSandboxError,
  WorkflowScriptError,
  type WorkflowSource,
  withWorkflows,
  workflowHost,
} from "./workflows/index.ts";
