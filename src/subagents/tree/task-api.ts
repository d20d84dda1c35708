import type { AgentDefinition, WorkspaceMode } from "../../agents/definition.ts";
import type { ImagePart } from "../../model/messages.ts";
import type { Ruleset } from "../../permissions/types.ts";
import type { TaskRecord, TaskStatus } from "../../tasks/task-record.ts";
import type { ToolContext, ToolResult } from "../../tools/tool.ts";
import type { ForkMode } from "../child/fork.ts";
import type { ChildRunReport } from "../report/child-run-report.ts";
import type { CallerScope } from "./caller-scope.ts";

/**
 * What the `task_*` tools may do in their tree: start, continue, message, watch and stop the caller's
 * children. The tools parse the model's arguments and word the results; this does the work. Every
 * method that takes a task_id refuses (with a `ToolError` the model can act on) one the caller did
 * not start.
 */
export interface TaskApi {
  /** Refuses a spawn tool of an agent at the depth limit (they are hidden there; a forged call is not). */
  checkDepth(ctx: ToolContext): void;
  /** The agents these rules let an agent start, sorted by name. */
  spawnable(rules: Ruleset): AgentDefinition[];
  /** `task`: starts a child, or continues the one named by `taskId`; waits for it unless in the background. */
  task(caller: CallerScope, request: TaskRequest, ctx: ToolContext): Promise<ToolResult>;
  /** `task_send`: a message into a working child's next turn, or a finished child continued with it. */
  send(caller: CallerScope, request: SendRequest, ctx: ToolContext): Promise<ToolResult>;
  /** The record of a task the caller started. */
  own(taskId: string, ctx: ToolContext, verb: string): Promise<TaskRecord>;
  /** The caller's tasks, newest first; unreadable records are reported and skipped. */
  list(ctx: ToolContext, status?: TaskStatus): Promise<TaskRecord[]>;
  /** Waits until any (or all) of the tasks finished, for at most `timeoutMs`. */
  wait(request: WaitRequest, signal: AbortSignal): Promise<WaitOutcome>;
  /** How far a child working in this process has got. */
  progress(taskId: string): TaskProgress | undefined;
  /** The caller saw these results itself: no notification repeats them. */
  markDelivered(taskIds: readonly string[]): Promise<void>;
  /** Stops a task and its descendants, here or through the process that runs it. */
  cancel(record: TaskRecord): Promise<CancelReport>;
}

/**
 * How a program rather than a model (a workflow's `agent()`) runs the children of one caller: each to
 * its end, however long it takes (no promotion to the background), with the report (`programChildren`).
 */
export interface ProgramChildren {
  runToEnd(request: TaskRequest, ctx: ToolContext): Promise<ChildRunReport>;
  /** Continues a child `runToEnd` ran (its history kept) with `prompt`, and waits for its next end. */
  continueToEnd(taskId: string, prompt: string, ctx: ToolContext): Promise<ChildRunReport>;
}

export interface TaskRequest {
  description: string;
  prompt: string;
  /** Images the child gets with `prompt` (the `task` tool's `images`, read by the caller). */
  images?: readonly ImagePart[];
  subagentType?: string;
  model?: string;
  taskId?: string;
  background?: boolean;
  fork?: ForkMode | string | number;
  /** Only these of the tools the child would have (a program's narrowing; `task` has no such argument). */
  tools?: readonly string[];
  /** Another workspace mode than its definition's. */
  workspace?: WorkspaceMode;
}

export interface SendRequest {
  taskId: string;
  message: string;
  interrupt: boolean;
}

export type WaitMode = "any" | "all";

export interface WaitRequest {
  taskIds: readonly string[];
  mode: WaitMode;
  timeoutMs: number;
  /** Called when the number of finished tasks changes. */
  onChange?: (records: TaskRecord[]) => void;
}

export interface WaitOutcome {
  /** The tasks as last read, in the order asked for (unknown ids left out). */
  records: TaskRecord[];
  /** The condition did not hold when the time ran out (or the caller was aborted). */
  timedOut: boolean;
}

/** How far a child running in this process has got. */
export interface TaskProgress {
  turns: number;
  lastTool: string | undefined;
  toolRunning: boolean;
  elapsedMs: number;
}

export type CancelReport =
  /** It had finished before: nothing was done. */
  | { kind: "finished"; record: TaskRecord }
  /** It runs in another process, which was asked to stop it. */
  | { kind: "requested"; record: TaskRecord }
  /** It ran here and was stopped, with the descendants that ran (task_ids, itself first). */
  | { kind: "cancelled"; record: TaskRecord | undefined; cancelled: string[] };
