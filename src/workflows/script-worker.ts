// The worker thread that runs workflow scripts (started by `script-sandbox.ts`, one script at a time).
// It holds the QuickJS engine and each script's runtime; the host keeps everything else (agents, the
// journal, events) and answers the script's calls by message. The host can terminate this thread at
// any moment, which is how a script that never yields (a loop that allocates, a long builtin) is
// stopped: QuickJS's interrupt handler only runs between bytecodes.
import { readFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { errorMessage } from "../text/error-message.ts";
import {
  BUDGET_FLAG,
  type FromScript,
  type FromWorker,
  type RunRequest,
  type ToWorker,
} from "./sandbox-messages.ts";

const PRELUDE = readFileSync(new URL("./sandbox-prelude.mjs", import.meta.url), "utf8");

if (parentPort === null) throw new Error("script-worker.ts runs as a worker thread of script-sandbox.ts");
const port = parentPort;
const post = (message: FromWorker) => port.postMessage(message);
/** Omit over a union keeps each member apart. */
type Untagged<T> = T extends unknown ? Omit<T, "run"> : never;

pinEngineTime();

let session: SandboxSession | undefined;
const engine = await loadEngine();
port.on("message", (message: ToWorker) => {
  if (message.type === "run") {
    session?.close();
    session = new SandboxSession(engine, message, () => {
      session = undefined;
    });
    session.start();
  } else if (session?.run === message.run) {
    session.reply(message.id, message.reply);
  }
  post({ type: "idle", run: message.run });
});
post({ type: "ready" });

/**
 * The engine's libc reads the time and the time zone from this thread's `Date` (emscripten's
 * `gettimeofday` and `localtime_r`). This thread runs nothing but scripts, so its `Date` is pinned:
 * the clock reads 0 and the time zone is UTC. The prelude already makes every route to the clock
 * throw; this keeps a route it missed deterministic (a resumed run does the same again), and local
 * time the same on every machine a run is resumed on.
 */
function pinEngineTime(): void {
  Date.now = () => 0;
  Date.prototype.getTimezoneOffset = () => 0;
}

async function loadEngine(): Promise<QuickJSWASMModule> {
  try {
    const core = await import("quickjs-emscripten-core");
    return await core.newQuickJSWASMModuleFromVariant(import("@jitl/quickjs-wasmfile-release-sync"));
  } catch (error) {
    post({ type: "unusable", message: errorMessage(error) });
    // Nothing more to do here: the host ends this thread.
    return await new Promise<never>(() => {});
  }
}

/** What the script threw, as QuickJS dumps it. */
class ScriptThrew {
  readonly dumped: unknown;
  constructor(dumped: unknown) {
    this.dumped = dumped;
  }
}

/** One script in its own runtime: its bridges, the calls it waits for, and the pump of its job queue. */
class SandboxSession {
  private readonly pending = new Map<number, QuickJSDeferredPromise>();
  private nextCall = 0;
  private closed = false;
  private sliceStart = 0;
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly request: RunRequest;
  private readonly onClose: () => void;
  readonly run: number;

  constructor(engine: QuickJSWASMModule, request: RunRequest, onClose: () => void) {
    this.request = request;
    this.run = request.run;
    this.onClose = onClose;
    this.runtime = engine.newRuntime();
    this.runtime.setMemoryLimit(request.memoryBytes);
    this.runtime.setMaxStackSize(1024 * 1024);
    this.runtime.setInterruptHandler(
      () => this.sliceStart > 0 && performance.now() - this.sliceStart > request.sliceMs,
    );
    this.context = this.runtime.newContext();
  }

  start(): void {
    const { context } = this;
    try {
      this.installBridges();
      this.evaluate(PRELUDE, "prelude.js").dispose();
      // On one line with the body's first, so the script's line numbers stay its own.
      const wrapped = `(async () => {${this.request.body}\n})().then((value) => JSON.stringify(value === undefined ? null : value))`;
      const promise = this.evaluate(wrapped, this.request.filename);
      const settled = context.resolvePromise(promise);
      promise.dispose();
      settled.then((result) => {
        if (this.closed) return;
        if (result.error) {
          const error = context.dump(result.error);
          result.error.dispose();
          this.end({ type: "done", ok: false, error });
        } else {
          const json = context.getString(result.value);
          result.value.dispose();
          this.end({ type: "done", ok: true, json });
        }
      });
      this.pump();
    } catch (error) {
      this.end({
        type: "done",
        ok: false,
        error: error instanceof ScriptThrew ? error.dumped : String(error),
      });
    }
  }

  reply(id: number, reply: string): void {
    const deferred = this.pending.get(id);
    if (this.closed || deferred === undefined) return;
    this.pending.delete(id);
    const value = this.context.newString(reply);
    deferred.resolve(value);
    value.dispose();
    deferred.dispose();
    try {
      this.pump();
    } catch (error) {
      this.end({
        type: "done",
        ok: false,
        error: error instanceof ScriptThrew ? error.dumped : String(error),
      });
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const deferred of this.pending.values()) deferred.dispose();
    this.pending.clear();
    this.context.dispose();
    this.runtime.dispose();
    this.onClose();
  }

  /** A message about this script. */
  private post(message: Untagged<FromScript>): void {
    post({ ...message, run: this.run } as FromScript);
  }

  private end(message: Untagged<FromScript>): void {
    if (this.closed) return;
    this.post(message);
    this.close();
  }

  private installBridges(): void {
    const { context, request } = this;
    const call = context.newFunction("__hostCall", (nameHandle, payloadHandle) => {
      const name = context.getString(nameHandle);
      const payload = JSON.parse(context.getString(payloadHandle)) as unknown;
      switch (name) {
        case "args":
          return context.newString(request.args);
        case "scope":
          return context.newString(JSON.stringify(request.scope));
        case "budget":
          return context.newString(this.budget());
        case "phase":
          this.post({ type: "phase", title: String(payload) });
          return context.undefined;
        case "log":
          this.post({ type: "log", message: String(payload) });
          return context.undefined;
        case "failure": {
          const { where, error } = payload as { where: string; error: string };
          this.post({ type: "failure", where: String(where), error: String(error) });
          return context.undefined;
        }
        default:
          throw new Error(`unknown host call ${name}`);
      }
    });
    const callAsync = context.newFunction("__hostAsync", (nameHandle, payloadHandle) => {
      const name = context.getString(nameHandle);
      const payload = context.getString(payloadHandle);
      if (name !== "agent" && name !== "workflow") throw new Error(`unknown host call ${name}`);
      const deferred = context.newPromise();
      const id = this.nextCall++;
      this.pending.set(id, deferred);
      this.post({ type: "call", id, name, payload });
      return deferred.handle;
    });
    context.setProp(context.global, "__hostCall", call);
    context.setProp(context.global, "__hostAsync", callAsync);
    call.dispose();
    callAsync.dispose();
  }

  /** `budget` is read synchronously: ask the host, and wait for its answer in the shared buffer. */
  private budget(): string {
    const flag = new Int32Array(this.request.budget, BUDGET_FLAG, 1);
    Atomics.store(flag, 0, 0);
    this.post({ type: "budget" });
    Atomics.wait(flag, 0, 0);
    const [total = Number.NaN, spent = 0] = new Float64Array(this.request.budget, 8, 2);
    return JSON.stringify({ total: Number.isNaN(total) ? null : total, spent });
  }

  /** Runs the jobs the script queued (its awaits), within one time slice. */
  private pump(): void {
    this.sliceStart = performance.now();
    try {
      const result = this.runtime.executePendingJobs();
      if (result.error) {
        const error = this.context.dump(result.error);
        result.error.dispose();
        throw new ScriptThrew(error);
      }
    } finally {
      this.sliceStart = 0;
    }
  }

  private evaluate(code: string, filename: string): QuickJSHandle {
    this.sliceStart = performance.now();
    try {
      const result = this.context.evalCode(code, filename);
      if (result.error) {
        const error = this.context.dump(result.error);
        result.error.dispose();
        throw new ScriptThrew(error);
      }
      return result.value;
    } finally {
      this.sliceStart = 0;
    }
  }
}
