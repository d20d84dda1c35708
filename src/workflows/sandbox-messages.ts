// The messages between the host (`script-sandbox.ts`) and the worker thread that runs a workflow
// script's QuickJS runtime (`script-worker.ts`). Only strings and plain data cross.

/** One script to run: the worker builds a fresh QuickJS runtime for it. */
export interface RunRequest {
  type: "run";
  /** Tags every message of this script, so a thread that serves the next one mixes none of them up. */
  run: number;
  body: string;
  filename: string;
  /** The script's `args`, as JSON. */
  args: string;
  /** The prefix of the script's replay positions ("" for a run's own script). */
  scope: string;
  memoryBytes: number;
  sliceMs: number;
  /**
   * `budget` is read synchronously by the script: the worker asks, then waits on this buffer's first
   * Int32 until the host has written `[total (NaN: none), spent]` as two Float64 after it.
   */
  budget: SharedArrayBuffer;
}

/** The host's answer to an `agent()` or `workflow()` call: `{ok, value} | {ok: false, error, stopped?}` as JSON. */
export interface CallReply {
  type: "reply";
  run: number;
  id: number;
  reply: string;
}

export type ToWorker = RunRequest | CallReply;

/** What the script's thrown value dumped to: an Error's `{name, message, stack}`, or any JSON value. */
export type DumpedError = unknown;

/** The engine is loaded (the worker takes a `run`), or it could not load (the worker is of no use). */
export type ThreadState = { type: "ready" } | { type: "unusable"; message: string };

/** A message about one script, tagged with its `run`. */
export type FromScript = { run: number } & (
  | { type: "call"; id: number; name: "agent" | "workflow"; payload: string }
  | { type: "phase"; title: string }
  | { type: "log"; message: string }
  | { type: "failure"; where: string; error: string }
  /** The script reads `budget`: answer through the run's shared buffer. */
  | { type: "budget" }
  /** One `run` or `reply` has been handled: the script's job queue is empty, it waits for the host. */
  | { type: "idle" }
  /** The script ended: its return value as JSON, or what it threw. Its runtime is disposed. */
  | { type: "done"; ok: true; json: string }
  | { type: "done"; ok: false; error: DumpedError }
);

export type FromWorker = ThreadState | FromScript;

/** Offsets in the budget buffer. */
export const BUDGET_FLAG = 0;
export const BUDGET_BYTES = 24;
