import { fileURLToPath } from "node:url";

/**
 * The bridge script (`network-bridge-main.mjs`), which runs inside the sandbox: it relays
 * 127.0.0.1:<port> to the proxy's Unix socket and runs the command once it listens. The package build
 * must put it beside this module's built file (`dist/sandbox/`).
 */
export const NETWORK_BRIDGE_SCRIPT = fileURLToPath(new URL("./network-bridge-main.mjs", import.meta.url));

/**
 * The launcher script (`network-launcher-main.mjs`), which runs outside the sandbox: it starts bubblewrap
 * with the seccomp filter and hands the bridge inside its connections to the proxy, since the filter
 * keeps the bridge from making a Unix socket itself. Built beside this module like the bridge.
 */
export const NETWORK_LAUNCHER_SCRIPT = fileURLToPath(new URL("./network-launcher-main.mjs", import.meta.url));

/**
 * The argv that starts `bwrap args…` through the launcher, with the filter at `filterFile` open on
 * descriptor `filterFd` (4 or more: 3 is the channel to the bridge), the proxy's socket at `socketPath`.
 */
export function launcherArgv(
  socketPath: string,
  filterFile: string,
  filterFd: number,
  bwrap: string,
  args: readonly string[],
): string[] {
  return [
    process.execPath,
    NETWORK_LAUNCHER_SCRIPT,
    socketPath,
    filterFile,
    String(filterFd),
    "--",
    bwrap,
    ...args,
  ];
}

/**
 * The argv that runs `argv` through the bridge: `[node, script, socketPath, port, "--", ...argv]`, run by
 * the Node that runs agentry. The sandbox must show the script, that Node and `socketPath`.
 */
export function bridgeArgv(socketPath: string, port: number, argv: readonly string[]): string[] {
  if (argv.length === 0) throw new Error("bridgeArgv: no command to run");
  return [process.execPath, NETWORK_BRIDGE_SCRIPT, socketPath, String(port), "--", ...argv];
}

/**
 * The environment that sends a command's HTTP(S) clients to the bridge on `port`: curl, git, npm, pip,
 * Python's requests and Node's fetch (which needs `NODE_USE_ENV_PROXY=1`, Node ≥ 22.21 / 24.5) read
 * these. Loopback stays direct: a command's own local servers are in its sandbox, not behind the proxy.
 */
export function proxyEnv(port: number): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const direct = "localhost,127.0.0.1,::1";
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NO_PROXY: direct,
    no_proxy: direct,
    NODE_USE_ENV_PROXY: "1",
  };
}
