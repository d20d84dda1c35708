import { lookup } from "node:dns/promises";
import { isIP, type Socket, connect as tcpConnect } from "node:net";
import { addressKind } from "./network-address.ts";
import { type HostRule, hostAllowed, listedExplicitly, normalizeHost } from "./network-hosts.ts";

/** The outcome of opening a connection for a sandboxed command: a socket, or the HTTP answer instead. */
export type Upstream = { ok: true; socket: Socket } | { ok: false; status: 400 | 403 | 502; message: string };

const CONNECT_TIMEOUT_MS = 10_000;
const CONFIG_KEY = "sandbox.network.allowedHosts";

/**
 * Opens a TCP connection to `host:port` if the allowlist admits it. The name is resolved here and every
 * address is judged before connecting — the address connected to is the one checked, so a name that
 * passes the allowlist and then resolves to 127.0.0.1 or 169.254.169.254 (DNS rebinding) is refused
 * unless the user listed that name or address on its own. The socket connects to the IP literal, so no
 * second resolution can differ from the first.
 */
export async function openUpstream(
  rules: readonly HostRule[],
  rawHost: string,
  port: number,
  signal: AbortSignal,
): Promise<Upstream> {
  const host = normalizeHost(rawHost);
  if (host === undefined || !Number.isInteger(port) || port < 1 || port > 65_535) {
    return {
      ok: false,
      status: 400,
      message: `agentry sandbox proxy: not a valid host and port: ${rawHost}:${port}`,
    };
  }
  if (!hostAllowed(rules, host)) return { ok: false, status: 403, message: hostRefused(host) };

  let addresses: string[];
  try {
    addresses = isIP(host) !== 0 ? [host] : await resolve(host);
  } catch (error) {
    return {
      ok: false,
      status: 502,
      message: `agentry sandbox proxy: cannot resolve ${host}: ${reason(error)}`,
    };
  }
  const permitted = addresses.filter(
    (address) => addressKind(address) === "public" || listedExplicitly(rules, host, address),
  );
  if (permitted.length === 0) return { ok: false, status: 403, message: addressRefused(host, addresses) };

  const failures: string[] = [];
  for (const address of permitted) {
    try {
      return { ok: true, socket: await connectTo(address, port, signal) };
    } catch (error) {
      failures.push(`${address}: ${reason(error)}`);
    }
  }
  return {
    ok: false,
    status: 502,
    message: `agentry sandbox proxy: cannot connect to ${host}:${port} (${failures.join("; ")})`,
  };
}

async function resolve(host: string): Promise<string[]> {
  const results = await lookup(host, { all: true });
  return results.map((result) => normalizeHost(result.address) ?? result.address);
}

function connectTo(address: string, port: number, signal: AbortSignal): Promise<Socket> {
  return new Promise((done, fail) => {
    // Half-open, so that a client which shuts down its side after a request still gets the answer.
    const socket = tcpConnect({ host: address, port, allowHalfOpen: true, signal });
    const timeout = () => socket.destroy(new Error(`no answer in ${CONNECT_TIMEOUT_MS / 1000} s`));
    const timer = setTimeout(timeout, CONNECT_TIMEOUT_MS);
    socket.once("connect", () => {
      clearTimeout(timer);
      done(socket);
    });
    // Left on after the connect (it settles nothing then): an error before the caller listens is handled.
    socket.once("error", (error) => {
      clearTimeout(timer);
      fail(error);
    });
  });
}

function hostRefused(host: string): string {
  return (
    `agentry sandbox: network access to ${host} is not allowed: it is not in ${CONFIG_KEY}.\n` +
    `To allow it, add "${host}" to ${CONFIG_KEY} in the agentry config ` +
    `("*.example.com" there allows every subdomain of example.com).`
  );
}

function addressRefused(host: string, addresses: readonly string[]): string {
  const where = addresses.map((address) => `${address} (${addressKind(address)})`).join(", ");
  return (
    `agentry sandbox: network access to ${host} is not allowed: it resolves to ${where}, and loopback, ` +
    `link-local and private addresses are reachable only when the host or the address is listed on its own, ` +
    `not through a "*." pattern.\nTo allow it, add "${host}" or the address to ${CONFIG_KEY} in the agentry config.`
  );
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code !== undefined && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}
