import { Worker } from "node:worker_threads";
import type { FromWorker, ToWorker } from "./sandbox-messages.ts";
import { WorkflowSandboxError } from "./workflow-errors.ts";

// From the sources the worker is the .ts file (Node strips its types); in the built package it is the
// .js that scripts/build.ts writes beside this module's own path.
const WORKER_URL = new URL(
  import.meta.url.endsWith(".ts") ? "./script-worker.ts" : "./script-worker.js",
  import.meta.url,
);

/** A started thread is kept this long after its script for the next one, then ended. */
const SPARE_FOR_MS = 30_000;

/** The worker thread a script runs in, for one script at a time. */
export interface ScriptThread {
  post(message: ToWorker): void;
  /** Where the thread's messages go, and its loss (it crashed, or exited without being asked). */
  listen(onMessage: (message: FromWorker) => void, onLost: (error: Error) => void): void;
  /** The script ended cleanly: the thread may serve the next one. */
  release(): void;
  /** Ends the thread at once, whatever it computes. */
  terminate(): void;
}

/**
 * One started thread kept between scripts: starting a thread and loading the engine in it costs tens of
 * milliseconds, and a run reads its script's `meta` in a sandbox just before it runs the body. It does
 * not keep the process alive. Each script still gets a runtime of its own.
 */
let spare: { thread: WorkerThread; timer: NodeJS.Timeout } | undefined;

/** A thread ready to run a script: the spare one, or a new one once its engine has loaded. */
export async function takeThread(signal: AbortSignal): Promise<ScriptThread> {
  if (spare !== undefined) {
    const { thread, timer } = spare;
    spare = undefined;
    clearTimeout(timer);
    thread.worker.ref();
    return thread;
  }
  return await WorkerThread.start(signal);
}

class WorkerThread implements ScriptThread {
  readonly worker: Worker;
  private onMessage: (message: FromWorker) => void = () => {};
  private onLost: (error: Error) => void = () => {};
  private ended = false;

  private constructor(worker: Worker) {
    this.worker = worker;
    worker.on("message", (message: FromWorker) => this.onMessage(message));
    worker.on("error", (error) => this.lost(error));
    worker.on("messageerror", (error) => this.lost(error));
    worker.on("exit", (code) => this.lost(new Error(`its thread exited (code ${code})`)));
  }

  static start(signal: AbortSignal): Promise<WorkerThread> {
    const thread = new WorkerThread(
      new Worker(WORKER_URL, {
        name: "agentry workflow script",
        // The thread needs nothing of the environment (keys included).
        env: {},
        // Strings pass through its heap (a script's result, a prompt); QuickJS's own heap is capped apart.
        resourceLimits: { maxOldGenerationSizeMb: 256 },
      }),
    );
    return new Promise<WorkerThread>((resolve, reject) => {
      const fail = (error: unknown) => {
        signal.removeEventListener("abort", abort);
        thread.terminate();
        reject(error);
      };
      const abort = () => fail(signal.reason);
      signal.addEventListener("abort", abort, { once: true });
      thread.listen(
        (message) => {
          if (message.type === "ready") {
            signal.removeEventListener("abort", abort);
            resolve(thread);
          } else if (message.type === "unusable") {
            fail(
              new WorkflowSandboxError(
                `The workflow sandbox (QuickJS, package @jitl/quickjs-wasmfile-release-sync) could not load: ${message.message}`,
              ),
            );
          }
        },
        (error) => fail(new WorkflowSandboxError(`The workflow sandbox could not start: ${error.message}`)),
      );
    });
  }

  post(message: ToWorker): void {
    if (!this.ended) this.worker.postMessage(message);
  }

  listen(onMessage: (message: FromWorker) => void, onLost: (error: Error) => void): void {
    this.onMessage = onMessage;
    this.onLost = onLost;
  }

  release(): void {
    this.listen(
      () => {},
      () => {},
    );
    if (this.ended) return;
    if (spare !== undefined) {
      this.terminate();
      return;
    }
    this.worker.unref();
    const timer = setTimeout(() => {
      if (spare?.thread === this) spare = undefined;
      this.terminate();
    }, SPARE_FOR_MS);
    timer.unref();
    spare = { thread: this, timer };
  }

  terminate(): void {
    if (this.ended) return;
    this.ended = true;
    void this.worker.terminate();
  }

  private lost(error: Error): void {
    if (this.ended) return;
    this.ended = true;
    if (spare?.thread === this) {
      clearTimeout(spare.timer);
      spare = undefined;
    }
    this.onLost(error);
  }
}
