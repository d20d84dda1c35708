import type { AgentEvent } from "../../contracts/events.ts";
import type { Outcome } from "../../contracts/outcome.ts";
import type { ImagePart, UserMessage } from "../../model/messages.ts";
import type { ExecutorRef } from "../../tasks/task-record.ts";

/**
 * Where a child runs: in this process (`in-process-executor.ts`), on another agentry or any A2A agent
 * (remote), on a queue worker. The runtime around it is the same for all — the child's state and
 * record, running slots, who is told the outcome — and every executor passes one suite
 * (`test/subagents/executor.conformance.ts`). One executor serves one child, across its activations.
 */
export interface ChildExecutor {
  /** Where it runs, for messages and records: `in-process`, `a2a`, `queue` … */
  readonly kind: string;
  /**
   * Starts one activation: the child goes on with its conversation — its first prompt, or what it is
   * told next — until it ends. It keeps its history between activations, wherever that lives.
   */
  start(input: ActivationInput): Activation;
  /**
   * Follows an activation started earlier, by this process before a restart or by another one, from
   * the `ref` it gave. Absent where an activation lives and dies with its process.
   */
  follow?(ref: ActivationRef, input: FollowInput): Activation;
  /**
   * Lets go of what it holds for the child between activations (its session's lock, a connection),
   * once its tree is done with it; another process may then continue the child.
   */
  close?(): void;
}

export interface FollowInput {
  /** Stops it when aborted: its parent's run ended, or it was cancelled. */
  signal: AbortSignal;
  /** Its events as they come, in order; each carries the child's `agentPath`. */
  emit(event: AgentEvent): void;
  /**
   * Told each time its `ref` changes after the start (a remote agent named its task), so the child's
   * record always says where to follow it from.
   */
  onRef?(ref: ActivationRef): void;
}

export interface ActivationInput extends FollowInput {
  /** Its next user message; absent when it goes on with `messages` alone. */
  prompt?: string;
  /** Images that go with `prompt` (the `task` tool's `images`). */
  images?: readonly ImagePart[];
  /** Messages sent to it while it waited to start: it reads them at its first turn. */
  messages: readonly UserMessage[];
}

export interface Activation {
  /** How it ended, once; never rejects (a failure is an `error` outcome, a cancel `aborted`). */
  readonly done: Promise<ActivationResult>;
  /** A message for its next turn. False once it reads no more (it is ending): continue it instead. */
  send(message: UserMessage): boolean;
  /** Stops its current step (a model call, its tools) so it turns to the messages sent at once. */
  interrupt(): void;
  /** What `follow` takes to find it again, for its record; absent when it cannot be followed. */
  readonly ref?: ActivationRef;
}

/** An executor's own address of one activation (a remote task, a queued job): the record's `ref`. */
export type ActivationRef = ExecutorRef;

export interface ActivationResult {
  outcome: Outcome;
  /** A worktree child's branch, when it kept its changes. */
  branch?: string;
  /** A line about its workspace its parent should know (where its files are, what failed). */
  workspaceNote?: string;
}
