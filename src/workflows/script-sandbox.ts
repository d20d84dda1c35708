import { readFileSync } from "node:fs";
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { WorkflowSandboxError, WorkflowScriptError } from "./workflow-errors.ts";

const PRELUDE = readFileSync(new URL("./sandbox-prelude.mjs", import.meta.url), "utf8");

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

/** The wasm engine, loaded once per process on first use (it is immutable; each run gets its own runtime). */
let engine: Promise<QuickJSWASMModule> | undefined;

function loadEngine(): Promise<QuickJSWASMModule> {
  // Imported here, so a process that runs no workflow never loads the engine.
  engine ??= import("quickjs-emscripten-core")
    .then((core) => core.newQuickJSWASMModuleFromVariant(import("@jitl/quickjs-wasmfile-release-sync")))
    .catch((error: unknown) => {
      engine = undefined;
      throw new WorkflowSandboxError(
        `The workflow sandbox (QuickJS, package @jitl/quickjs-wasmfile-release-sync) could not load: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  return engine;
}

/**
 * Runs a workflow script's body (top-level `await` and `return` allowed) in a QuickJS runtime of its
 * own: a JavaScript engine compiled to wasm, which has no file system, network, process, environment
 * or module loader to offer. The script sees only the primitives of the prelude; each crossing is a
 * string. Resolves to what the script returns (as JSON data), rejects with `WorkflowScriptError` for
 * what the script did wrong. See docs/decisions/0011-workflow-sandbox.md.
 */
export async function runScript(body: string, host: SandboxHost, options: SandboxOptions): Promise<unknown> {
  const quickjs = await loadEngine();
  options.signal.throwIfAborted();
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(options.memoryBytes ?? 64 * 1024 * 1024);
  runtime.setMaxStackSize(1024 * 1024);
  const sliceMs = options.sliceMs ?? 5_000;
  let sliceStart = 0;
  runtime.setInterruptHandler(() => sliceStart > 0 && performance.now() - sliceStart > sliceMs);
  const context = runtime.newContext();
  const session = new SandboxSession(runtime, context, host, () => {
    sliceStart = performance.now();
    return () => {
      sliceStart = 0;
    };
  });
  try {
    return await session.run(body, options);
  } finally {
    session.close();
  }
}

/** One script in one runtime: its bridges, the calls it is waiting for, and the pump of its job queue. */
class SandboxSession {
  private readonly pending = new Set<QuickJSDeferredPromise>();
  private closed = false;
  private fault: unknown;

  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly host: SandboxHost;
  /** Starts a time slice of the interrupt handler; the function it returns ends it. */
  private readonly slice: () => () => void;

  constructor(runtime: QuickJSRuntime, context: QuickJSContext, host: SandboxHost, slice: () => () => void) {
    this.runtime = runtime;
    this.context = context;
    this.host = host;
    this.slice = slice;
  }

  async run(body: string, options: SandboxOptions): Promise<unknown> {
    const { context } = this;
    this.installBridges();
    this.evaluate(PRELUDE, "prelude.js").dispose();
    // On one line with the body's first, so the script's line numbers stay its own.
    const wrapped = `(async () => {${body}\n})().then((value) => JSON.stringify(value === undefined ? null : value))`;
    const promise = this.evaluate(wrapped, options.filename);
    const settled = context.resolvePromise(promise);
    promise.dispose();
    this.pump();
    const aborted = new Promise<never>((_, reject) => {
      const stop = () => reject(options.signal.reason);
      if (options.signal.aborted) stop();
      else options.signal.addEventListener("abort", stop, { once: true });
    });
    const result = await Promise.race([settled, aborted]);
    if (this.fault !== undefined) throw this.fault;
    if (result.error) {
      const error = context.dump(result.error);
      result.error.dispose();
      throw scriptError(error);
    }
    const text = context.getString(result.value);
    result.value.dispose();
    return JSON.parse(text);
  }

  close(): void {
    this.closed = true;
    for (const deferred of this.pending) deferred.dispose();
    this.pending.clear();
    this.context.dispose();
    this.runtime.dispose();
  }

  private installBridges(): void {
    const { context, host } = this;
    const call = context.newFunction("__hostCall", (nameHandle, payloadHandle) => {
      const name = context.getString(nameHandle);
      const payload = JSON.parse(context.getString(payloadHandle)) as unknown;
      switch (name) {
        case "args":
          return context.newString(JSON.stringify(host.args ?? null));
        case "scope":
          return context.newString(JSON.stringify(host.scope ?? ""));
        case "budget":
          return context.newString(JSON.stringify(host.budget?.() ?? { total: null, spent: 0 }));
        case "phase":
          host.phase(String(payload));
          return context.undefined;
        case "log":
          host.log(String(payload));
          return context.undefined;
        case "failure": {
          const { where, error } = payload as { where: string; error: string };
          host.failure(String(where), String(error));
          return context.undefined;
        }
        default:
          throw new Error(`unknown host call ${name}`);
      }
    });
    const callAsync = context.newFunction("__hostAsync", (nameHandle, payloadHandle) => {
      const name = context.getString(nameHandle);
      const payload = context.getString(payloadHandle);
      const call =
        name === "agent"
          ? host.agent(payload)
          : name === "workflow"
            ? (host.workflow?.(payload) ??
              Promise.resolve(
                JSON.stringify({
                  ok: false,
                  error: "workflow() is not available here: workflows nest one level only",
                }),
              ))
            : undefined;
      if (call === undefined) throw new Error(`unknown host call ${name}`);
      const deferred = context.newPromise();
      this.pending.add(deferred);
      call.then(
        (reply) => this.settle(deferred, reply),
        (error: unknown) => {
          // The host answers every call; a rejection is a bug of ours, which ends the run.
          this.fault = error;
          this.settle(deferred, JSON.stringify({ ok: false, error: "internal error", stopped: true }));
        },
      );
      return deferred.handle;
    });
    context.setProp(context.global, "__hostCall", call);
    context.setProp(context.global, "__hostAsync", callAsync);
    call.dispose();
    callAsync.dispose();
  }

  private settle(deferred: QuickJSDeferredPromise, reply: string): void {
    if (this.closed || !this.pending.delete(deferred)) return;
    const value = this.context.newString(reply);
    deferred.resolve(value);
    value.dispose();
    deferred.dispose();
    this.pump();
  }

  /** Runs the jobs the script queued (its awaits), within one time slice. */
  private pump(): void {
    const done = this.slice();
    try {
      const result = this.runtime.executePendingJobs();
      if (result.error) {
        const error = this.context.dump(result.error);
        result.error.dispose();
        this.fault ??= scriptError(error);
      }
    } finally {
      done();
    }
  }

  private evaluate(code: string, filename: string): QuickJSHandle {
    const done = this.slice();
    try {
      const result = this.context.evalCode(code, filename);
      if (result.error) {
        const error = this.context.dump(result.error);
        result.error.dispose();
        throw scriptError(error);
      }
      return result.value;
    } finally {
      done();
    }
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
