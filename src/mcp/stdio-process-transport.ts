import type { ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import {
  type JSONRPCMessage,
  ReadBuffer,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/client";
import { isProcessGroupAlive, signalProcessGroup } from "../tools/process/process-group.ts";
import { processSupervisor } from "../tools/process/process-supervisor.ts";
import { spawnWatched } from "../tools/process/watched-spawn.ts";
import { LineTail } from "./line-tail.ts";

/** How long a server gets to exit on its own after its stdin was closed (the MCP shutdown sequence). */
export const STDIN_CLOSE_GRACE_MS = 1_000;
/** How long it then gets after SIGTERM before SIGKILL. */
export const KILL_GRACE_MS = 1_000;
/** After `exit`, how long stdout and stderr may still deliver data (a grandchild may hold them open). */
const DRAIN_MS = 200;

export interface StdioProcessOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The MCP stdio transport, owning its process: the server runs as the leader of its own process group
 * (so `npx`/`uvx` wrappers and their children end together, and a Ctrl-C in the terminal does not reach
 * it), its stderr is kept (last 20 lines) instead of printed, and its exit code is known for error
 * messages. Messages are newline-delimited JSON, read with the SDK's `ReadBuffer`.
 */
export class StdioProcessTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport["onmessage"];
  /** The last lines the server wrote to stderr. */
  readonly stderr = new LineTail(20);
  /** How the process ended; undefined while it runs. */
  exit: ProcessExit | undefined;

  private readonly options: StdioProcessOptions;
  private readonly buffer = new ReadBuffer();
  private child: ChildProcess | undefined;
  private ended: Promise<void> = Promise.resolve();
  private stopping: Promise<void> | undefined;

  constructor(options: StdioProcessOptions) {
    this.options = options;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child !== undefined) throw new Error("the stdio transport was already started");
    // If agentry dies (even by SIGKILL), the supervisor ends the server's whole process group.
    const child = spawnWatched(this.options.command, this.options.args, {
      cwd: this.options.cwd,
      env: this.options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child = child;
    const pgid = child.pid;
    let markEnded = () => {};
    this.ended = new Promise((resolve) => {
      markEnded = resolve;
    });
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      if (pgid !== undefined) processSupervisor.release(pgid);
      this.buffer.clear();
      markEnded();
      this.onclose?.();
    };
    child.on("exit", (code, signal) => {
      this.exit = { code, signal };
      setTimeout(end, DRAIN_MS).unref();
    });
    child.on("close", end);
    child.stderr?.on("data", (chunk: Buffer) => this.stderr.write(chunk));
    child.stdout?.on("data", (chunk: Buffer) => {
      try {
        this.buffer.append(chunk);
      } catch (error) {
        // One message over the SDK's 10 MB limit: the stream cannot be resynchronised.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        void this.kill();
        return;
      }
      this.readMessages();
    });
    for (const stream of [child.stdin, child.stdout, child.stderr]) {
      // EPIPE and friends when the server dies; the exit is what matters, and it is reported.
      stream?.on("error", (error) => this.onerror?.(error));
    }
    return new Promise((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", (error) => {
        this.exit ??= { code: null, signal: null };
        end();
        reject(error);
      });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin == null || !stdin.writable || this.exit !== undefined) {
      throw new Error("the MCP server process is not running");
    }
    if (!stdin.write(serializeMessage(message))) {
      await new Promise<void>((resolve) => {
        stdin.once("drain", resolve);
        stdin.once("close", resolve);
      });
    }
  }

  /** The MCP shutdown sequence: close stdin, wait, SIGTERM the group, wait, SIGKILL. Idempotent. */
  close(): Promise<void> {
    this.stopping ??= this.stop(true);
    return this.stopping;
  }

  /** Like `close`, without waiting for the server to exit on its own (it failed to start). */
  kill(): Promise<void> {
    this.stopping ??= this.stop(false);
    return this.stopping;
  }

  private async stop(graceful: boolean): Promise<void> {
    const child = this.child;
    const pgid = child?.pid;
    if (child === undefined || pgid === undefined) return;
    if (graceful && this.exit === undefined) {
      child.stdin?.end();
      await Promise.race([this.ended, sleep(STDIN_CLOSE_GRACE_MS, undefined, { ref: false })]);
    }
    // The leader may be gone while its children (an npx wrapper's server) still run.
    if (this.exit === undefined || (await isProcessGroupAlive(pgid))) {
      signalProcessGroup(pgid, "SIGTERM");
      if (!(await groupGone(pgid, KILL_GRACE_MS))) {
        signalProcessGroup(pgid, "SIGKILL");
        await groupGone(pgid, KILL_GRACE_MS);
      }
    }
    await this.ended;
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.stdin?.destroy();
  }

  private readMessages(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // A log line on stdout: skip it, as the SDK's own transport does.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }
}

/** Polls until no member of the group runs (true), or `timeoutMs` passed (false). */
async function groupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (await isProcessGroupAlive(pgid)) {
    if (Date.now() >= end) return false;
    await sleep(25);
  }
  return true;
}
