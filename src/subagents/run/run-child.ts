import { abortReason } from "../../agent/abort.ts";
import type { AgentEvent } from "../../contracts/events.ts";
import type { ImagePart } from "../../model/messages.ts";
import { errorMessage } from "../../text/error-message.ts";
import type { Child } from "../child/child.ts";
import type { ChildRunReport } from "../report/child-run-report.ts";
import type { Pulse } from "../tree/pulse.ts";
import type { TaskControl } from "../tree/task-control.ts";
import type { ActivationRef, ActivationResult } from "./executor.ts";
import type { Semaphore } from "./semaphore.ts";

/** What running a child takes from its tree. */
export interface RunDeps {
  /** The tree's running slots (`maxConcurrent` of them). */
  slots: Semaphore;
  maxConcurrent: number;
  /** Heartbeats and cross-process cancel of the children running here. */
  control: TaskControl;
  /** Fired whenever a child's outcome is recorded. */
  settled: Pulse;
}

export interface RunRequest {
  /** Its next user message; absent when it goes on with the messages sent to it. */
  prompt?: string;
  /** Images that go with `prompt`. */
  images?: readonly ImagePart[];
  /** The `task` call's description, added to the child's `agent_start` event. */
  description: string;
  /** The caller's run: when it stops, the child stops. */
  parentSignal: AbortSignal;
  /** The caller's event sink, so the child's events bubble up the tree. */
  emit: (event: AgentEvent) => void;
  /** Tells the caller the child waits for a slot (a sync caller shows it). */
  progress: (update: string) => void;
  /** It was continued (`Child.continue`): its record is being reopened. */
  reopened?: Promise<void>;
  /** A running slot taken already (its record was created RUNNING). */
  slot?: () => void;
  /** Take up the activation this ref names (`ChildExecutor.follow`, after a restart) instead of starting one. */
  follow?: ActivationRef;
}

/**
 * One activation of a child, from its `task` (or `task_send`) call to its recorded outcome: waits for
 * a running slot, has its executor run it, and moves it through its states — each written into its
 * TaskRecord. Never rejects. Call it in the same synchronous step as the transition that asked the
 * child to work, so nothing else can start it meanwhile.
 */
export async function runChild(child: Child, request: RunRequest, deps: RunDeps): Promise<ChildRunReport> {
  deps.control.track(child.taskId);
  const signal = AbortSignal.any([child.cancelSignal, request.parentSignal]);
  let result: ActivationResult;
  let release: (() => void) | undefined;
  try {
    await request.reopened;
    release = request.slot ?? (await acquire(child, signal, request.progress, deps));
    if (!release) {
      result = { outcome: child.endedEarly({ status: "aborted", reason: abortReason(signal) }) };
    } else {
      await child.start();
      const emit = childEvents(child, request);
      const onRef = (ref: ActivationRef) => void child.noteRef(ref);
      const { follow } = request;
      const activation = child.attach((messages) =>
        follow !== undefined && child.executor.follow !== undefined
          ? child.executor.follow(follow, { signal, emit, onRef })
          : child.executor.start({
              ...(request.prompt === undefined ? {} : { prompt: request.prompt }),
              ...(request.images === undefined ? {} : { images: request.images }),
              messages,
              signal,
              emit,
              onRef,
            }),
      );
      if (activation.ref !== undefined) onRef(activation.ref);
      result = await activation.done;
    }
  } catch (error) {
    const message = errorMessage(error);
    result = { outcome: child.endedEarly({ status: "error", error: `internal error: ${message}` }) };
  }
  // The activation's time as its caller saw it: from the call, the wait for a slot included.
  const outcome = { ...result.outcome, durationMs: Date.now() - child.progress.startedAt };
  // Decided in one synchronous step with `detach`, so an outcome is either returned or notified.
  child.end(outcome);
  // The slot is free as soon as the child stopped working; a queued sibling need not wait for the write.
  release?.();
  const report: ChildRunReport = {
    taskId: child.taskId,
    agentType: child.definition.name,
    model: child.model,
    outcome,
    maxTurns: child.maxTurns,
    ...(result.branch === undefined ? {} : { branch: result.branch }),
    ...(result.workspaceNote === undefined ? {} : { workspaceNote: result.workspaceNote }),
  };
  await child.record(report);
  deps.control.untrack(child.taskId);
  deps.settled.fire();
  return report;
}

/** Waits (abortably) for a running slot, telling the caller when the child has to queue. */
async function acquire(
  child: Child,
  signal: AbortSignal,
  progress: (update: string) => void,
  deps: RunDeps,
): Promise<(() => void) | undefined> {
  const label = child.agentPath.join("/");
  const queued = deps.slots.running >= deps.maxConcurrent;
  if (queued) {
    progress(
      `queued ${label}: ${deps.slots.running} subagents running (limit ${deps.maxConcurrent}), ${deps.slots.queued} already waiting`,
    );
  }
  try {
    const release = await deps.slots.acquire(signal);
    if (queued) progress(`started ${label}`);
    return release;
  } catch {
    return undefined;
  }
}

/** The child's events for its caller: they update its progress, and its own start says what it was asked. */
function childEvents(child: Child, request: RunRequest): (event: AgentEvent) => void {
  return (event) => {
    if (samePath(event.agentPath, child.agentPath)) child.observe(event);
    request.emit(
      event.type === "agent_start" && event.sessionId === child.sessionId
        ? { ...event, description: request.description }
        : event,
    );
  };
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}
