import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { commandPath, missingMessage, REDIS } from "./components.ts";
import { tempDir } from "./temp-dir.ts";
import { scaled } from "./time-scale.ts";

/** A `redis-server` of a test's own: loopback only, a random port, its files in a temp folder. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>/0` */
  url: string;
  port: number;
  readonly pid: number;
  /** Stops it (SIGTERM) and waits for the exit. */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL), as when the machine running it is lost; waits for the exit. */
  kill(): Promise<void>;
  /**
   * Starts it again on the same port, after `stop` or `kill`: empty, or with what it had when it runs
   * with `appendonly` (every write is on disk before it is answered).
   */
  restart(): Promise<void>;
}

export interface RedisServerOptions {
  /** Keep every write in an append-only file (fsync'ed each write), so a restart keeps the data. */
  appendonly?: boolean;
}

/**
 * Starts `redis-server` on a free loopback port, never the system's service, without persistence
 * unless `appendonly`. Throws with the Debian package's name when it is not installed (callers use
 * `describeWith(REDIS, …)`).
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const command = commandPath(REDIS);
  if (command === undefined) throw new Error(missingMessage(REDIS));
  const dir = await tempDir("agentry-redis-");
  // A free port can be taken between the probe and redis's bind: try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    try {
      return await launch(command, dir, port, options.appendonly === true);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

async function launch(command: string, dir: string, port: number, appendonly: boolean): Promise<RedisServer> {
  let running = await spawnServer(command, dir, port, appendonly);
  const stop = async (signal: NodeJS.Signals) => {
    const { child, exited } = running;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    get pid() {
      return running.child.pid ?? 0;
    },
    stop: () => stop("SIGTERM"),
    kill: () => stop("SIGKILL"),
    async restart() {
      await stop("SIGTERM");
      running = await spawnServer(command, dir, port, appendonly);
    },
  };
}

async function spawnServer(
  command: string,
  dir: string,
  port: number,
  appendonly: boolean,
): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const child = spawn(
    command,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--dir",
      dir,
      "--save",
      "",
      ...(appendonly ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]),
      "--daemonize",
      "no",
      "--loglevel",
      "notice",
      "--logfile",
      "",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await ready(child, port);
  return { child, exited };
}

/** Resolves once it accepts connections; rejects with its output when it exits first. */
function ready(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`redis-server did not start on port ${port} within ${scaled(10_000)} ms: ${output.trim()}`),
      );
    }, scaled(10_000));
    const onData = (chunk: string) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.setEncoding("utf8").on("data", onData);
    child.stderr?.setEncoding("utf8").on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code} before it was ready: ${output.trim()}`));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
