import { Worker } from "node:worker_threads";
import { BUDGET_BYTES, BUDGET_FLAG, type FromWorker, type ToWorker } from "./sandbox-messages.ts";
import { WorkflowSandboxError, WorkflowScriptError } from "./workflow-errors.ts";

/** What the script reaches through its primitives; everything else it cannot touch. */
export interface SandboxHost {
  /** The workflow's input, as the script's `args` (JSON data). */
  args: unknown;
  /** One `agent()` call: `{prompt, options}` as JSON in; `{ok, value} | {ok: false, error, stopped?}` as JSON out. */
  agent(payload: string): Promise<string>;
  phase(title: string): void;
  log(message: string): void;
  /** An item of `parallel` or `pipeline` failed; it resolved to null and the others went on. */
  failure(where: string, error: string): void;
  /** `workflow(name, args)`: `{name, args}` as JSON in, a reply as `agent`'s out. Absent: not allowed here. */
  workflow?(payload: string): Promise<string>;
  /** The run's token budget (null without one) and the tokens its agents used so far. */
  budget?(): { total: number | null; spent: number };
  /**
   * The scope of the script's calls, the prefix of their replay positions: "" for a run's script, the
   * position of the `workflow()` call for a nested one (default "").
   */
  scope?: string;
}

export interface SandboxOptions {
  /** Stops the script: pending calls are dropped and `runScript` rejects with the signal's reason. */
  signal: AbortSignal;
  /** A name for the script's stack traces. */
  filename: string;
  /** The sandbox's heap (default 64 MiB). */
  memoryBytes?: number;
  /** How long the script may compute without awaiting (default 5 s): an endless loop cannot hang the run. */
  sliceMs?: number;
}

/** How long past its compute slice a script that does not yield is let run before its thread is ended. */
const SLICE_GRACE_MS = 500;

/**
 * Runs a workflow script's body (top-level `await` and `return` allowed) in a QuickJS runtime of its
 * own: a JavaScript engine compiled to wasm, which has no file system, network, process, environment
 * or module loader to offer. The script sees only the primitives of the prelude; each crossing is a
 * string. Resolves to what the script returns (as JSON data), rejects with `WorkflowScriptError` for
 * what the script did wrong. See docs/decisions/0011-workflow-sandbox.md.
 *
 * The runtime lives in a worker thread (`script-worker.ts`); this side answers its calls. So the
 * script never holds this thread: a cancel, a budget, a signal, other agents go on while it computes,
 * and a script that does not yield is ended with its thread, whatever it is doing.
 */
export async function runScript(body: string, host: SandboxHost, options: SandboxOptions): Promise<unknown> {
  options.signal.throwIfAborted();
  const thread = await takeThread(options.signal);
  return await new Promise<unknown>((resolve, reject) => {
    new ScriptRun(thread, host, options, { resolve, reject }).start(body);
  });
}

/** Numbers the scripts of this process, to tell a thread's messages about one from another's. */
let runs = 0;

/** One script on its thread: the host's side of its calls, and the watch on how long it computes. */
class ScriptRun {
  private readonly run = ++runs;
  /** Messages that make the script compute (`run`, `reply`), and how many it has handled. */
  private sent = 0;
  private handled = 0;
  private watchdog: NodeJS.Timeout | undefined;
  private ended = false;
  private readonly budget = new SharedArrayBuffer(BUDGET_BYTES);
  private readonly sliceMs: number;

  private readonly thread: ScriptThread;
  private readonly host: SandboxHost;
  private readonly options: SandboxOptions;
  private readonly settle: { resolve: (value: unknown) => void; reject: (error: unknown) => void };

  constructor(
    thread: ScriptThread,
    host: SandboxHost,
    options: SandboxOptions,
    settle: { resolve: (value: unknown) => void; reject: (error: unknown) => void },
  ) {
    this.thread = thread;
    this.host = host;
    this.options = options;
    this.settle = settle;
    this.sliceMs = options.sliceMs ?? 5_000;
  }

  start(body: string): void {
    const { host, options } = this;
    this.thread.listen(
      (message) => this.receive(message),
      (error) =>
        this.end({ error: new WorkflowSandboxError(`The workflow sandbox failed: ${error.message}`) }),
    );
    if (options.signal.aborted) {
      this.abort();
      return;
    }
    options.signal.addEventListener("abort", this.abort, { once: true });
    this.send({
      type: "run",
      run: this.run,
      body,
      filename: options.filename,
      args: JSON.stringify(host.args ?? null),
      scope: host.scope ?? "",
      memoryBytes: options.memoryBytes ?? 64 * 1024 * 1024,
      sliceMs: this.sliceMs,
      budget: this.budget,
    });
  }

  private readonly abort = () => this.end({ error: this.options.signal.reason });

  private send(message: ToWorker): void {
    if (this.ended) return;
    this.sent++;
    if (this.sent - this.handled === 1) this.watch();
    this.thread.post(message);
  }

  /** A slice of computing begins: past its length (and a grace for the engine's own interrupt), the thread ends. */
  private watch(): void {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(
      () => this.end({ error: scriptError({ name: "InternalError", message: "interrupted" }) }),
      this.sliceMs + SLICE_GRACE_MS,
    );
  }

  private receive(message: FromWorker): void {
    if (this.ended || !("run" in message) || message.run !== this.run) return;
    try {
      switch (message.type) {
        case "call":
          this.call(message.id, message.name, message.payload);
          return;
        case "phase":
          this.host.phase(message.title);
          return;
        case "log":
          this.host.log(message.message);
          return;
        case "failure":
          this.host.failure(message.where, message.error);
          return;
        case "budget":
          this.answerBudget();
          return;
        case "idle":
          this.handled++;
          if (this.handled === this.sent) clearTimeout(this.watchdog);
          else this.watch();
          return;
        case "done":
          if (message.ok) this.end({ value: JSON.parse(message.json) as unknown, reuse: true });
          else this.end({ error: scriptError(message.error), reuse: true });
          return;
      }
    } catch (error) {
      // The host's side threw: a bug of ours, which ends the run.
      this.end({ error });
    }
  }

  private call(id: number, name: "agent" | "workflow", payload: string): void {
    const { host } = this;
    const answer =
      name === "agent"
        ? host.agent(payload)
        : (host.workflow?.(payload) ??
          Promise.resolve(
            JSON.stringify({
              ok: false,
              error: "workflow() is not available here: workflows nest one level only",
            }),
          ));
    answer.then(
      (reply) => this.send({ type: "reply", run: this.run, id, reply }),
      // The host answers every call; a rejection is a bug of ours, which ends the run.
      (error: unknown) => this.end({ error }),
    );
  }

  private answerBudget(): void {
    const { total, spent } = this.host.budget?.() ?? { total: null, spent: 0 };
    const numbers = new Float64Array(this.budget, 8, 2);
    numbers[0] = total ?? Number.NaN;
    numbers[1] = spent;
    const flag = new Int32Array(this.budget, BUDGET_FLAG, 1);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  }

  /** The script's end: its value, or why it stopped. A thread whose script ended by itself serves again. */
  private end(result: { value: unknown; reuse: true } | { error: unknown; reuse?: boolean }): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.watchdog);
    this.options.signal.removeEventListener("abort", this.abort);
    if (result.reuse === true) this.thread.release();
    else this.thread.terminate();
    if ("value" in result) this.settle.resolve(result.value);
    else this.settle.reject(result.error);
  }
}

/** The script's error as the user reads it: its name, message and where in the script it was thrown. */
function scriptError(dumped: unknown): WorkflowScriptError {
  if (dumped !== null && typeof dumped === "object") {
    const { name, message, stack } = dumped as { name?: unknown; message?: unknown; stack?: unknown };
    const where = typeof stack === "string" ? firstFrame(stack) : undefined;
    const text = `${typeof name === "string" ? name : "Error"}: ${typeof message === "string" ? message : String(dumped)}`;
    const hint = hintFor(typeof message === "string" ? message : "");
    return new WorkflowScriptError(
      `The workflow script failed: ${text}${where ? ` (${where})` : ""}${hint === undefined ? "" : `. ${hint}`}`,
    );
  }
  return new WorkflowScriptError(`The workflow script failed: it threw ${JSON.stringify(dumped)}`);
}

const REACHES_ONLY =
  "A workflow script reaches nothing outside itself (no files, network, environment, processes or modules) but agent(), parallel(), pipeline(), phase(), log() and args: ask an agent to do it";

/** What to do about the errors a script meets when it reaches for what the sandbox does not have. */
function hintFor(message: string): string | undefined {
  if (/could not load module/.test(message)) return `import() is not available. ${REACHES_ONLY}`;
  if (/^'?\w+'? is not defined$/.test(message)) return REACHES_ONLY;
  if (message === "interrupted") {
    return "It computed too long without awaiting anything (an endless loop?) and was stopped";
  }
  if (/out of memory/.test(message)) return "It used more memory than a workflow script may (64 MiB)";
  return undefined;
}

function firstFrame(stack: string): string | undefined {
  const line = stack.split("\n").find((frame) => frame.includes("at ") && !frame.includes("prelude.js"));
  return line?.trim().replace(/^at /, "at ");
}

// From the sources the worker is the .ts file (Node strips its types); in the built package it is the
// .js that scripts/build.ts writes beside this module's own path.
const WORKER_URL = new URL(
  import.meta.url.endsWith(".ts") ? "./script-worker.ts" : "./script-worker.js",
  import.meta.url,
);

/** A started thread is kept this long after its script for the next one, then ended. */
const SPARE_FOR_MS = 30_000;

/** The worker thread a script runs in, for one script at a time. */
interface ScriptThread {
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
async function takeThread(signal: AbortSignal): Promise<ScriptThread> {
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
