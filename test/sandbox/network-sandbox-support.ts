// Real processes for the network tests: a bubblewrap sandbox with no network but loopback, commands run
// in it (through the bridge or not), and the HTTP clients available to them.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { bridgeArgv } from "../../src/sandbox/network-bridge.ts";

export type SandboxProbe = { ok: true } | { ok: false; reason: string };

const BWRAP_FLAGS = [
  "--unshare-user",
  "--unshare-net",
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
];

/** Whether `bwrap` runs here with a private network namespace, and if not, why not. */
export function probeSandbox(): SandboxProbe {
  const result = spawnSync("bwrap", [...BWRAP_FLAGS, "--", "true"], { encoding: "utf8" });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
    return {
      ok: false,
      reason: "bwrap is not installed (the bubblewrap package: apt-get install bubblewrap)",
    };
  }
  if (result.status !== 0) {
    const why = (result.stderr || result.error?.message || `exit ${result.status}`).trim();
    return { ok: false, reason: `bwrap cannot create its namespaces here (bubblewrap package): ${why}` };
  }
  return { ok: true };
}

/** Whether a program is on PATH. */
export function installed(program: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;
}

export interface Run {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a process with piped output, in its own process group (so a test's signal reaches only it). */
export function start(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Run {
  const [file, ...args] = argv;
  if (file === undefined) throw new Error("start: empty argv");
  const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  const collect = (chunk: string) => {
    output += chunk;
  };
  child.stdout?.setEncoding("utf8").on("data", collect);
  child.stderr?.setEncoding("utf8").on("data", collect);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.on("close", (code, signal) => done({ code, signal }));
  });
  return { child, output: () => output, exit };
}

export interface SandboxOptions {
  /** Bound read-write into the sandbox, where the proxy's socket lives. */
  socketDir: string;
  /** The command's whole environment. */
  env: Record<string, string>;
  /** Run the command through the bridge to this proxy socket, listening on this port. */
  bridge?: { socketPath: string; port: number };
}

/** Runs `argv` in a sandbox whose network namespace holds only loopback. */
export function sandboxed(argv: readonly string[], options: SandboxOptions): Run {
  const command = options.bridge ? bridgeArgv(options.bridge.socketPath, options.bridge.port, argv) : argv;
  const flags = [...BWRAP_FLAGS, "--bind", options.socketDir, options.socketDir, "--die-with-parent"];
  return start(["bwrap", ...flags, "--", ...command], {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    ...options.env,
  });
}

const CLIENT = fileURLToPath(new URL("./network-client-main.ts", import.meta.url));

/** A proxy-aware HTTP client: the argv for each thing a test asks of it. It prints the status and the body. */
export interface HttpClient {
  name: string;
  /** GET through the proxy that HTTP_PROXY/HTTPS_PROXY name. */
  get(url: string): string[];
  /** CONNECT to `authority` through HTTPS_PROXY, then GET `path` over the tunnel. */
  tunnel(authority: string, path: string): string[];
}

/** Node's own fetch and a small CONNECT client, run by the Node that runs the tests: always there. */
export const nodeClient: HttpClient = {
  name: "node",
  get: (url) => [process.execPath, CLIENT, "fetch", url],
  tunnel: (authority, path) => [process.execPath, CLIENT, "tunnel", authority, path],
};

/** curl, when the machine has it (`-p`: tunnel with CONNECT even for http://). */
export const curlClient: HttpClient = {
  name: "curl",
  get: (url) => ["curl", "-sS", "-w", "\n%{http_code}\n", url],
  tunnel: (authority, path) => ["curl", "-sS", "-p", "-w", "\n%{http_code}\n", `http://${authority}${path}`],
};

/** The node client's raw modes: an explicit proxy, and a tunnel held open until the proxy ends it. */
export const viaProxy = (port: number, url: string) => [
  process.execPath,
  CLIENT,
  "via-proxy",
  String(port),
  url,
];
export const holdTunnel = (authority: string) => [process.execPath, CLIENT, "hold", authority];
