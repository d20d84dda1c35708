import { randomBytes } from "node:crypto";
import { chmod, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { forwardedHeaders } from "./network-headers.ts";
import { type HostRule, parseAllowedHosts } from "./network-hosts.ts";
import { openUpstream, type Upstream } from "./network-upstream.ts";

export interface NetworkProxyOptions {
  /** Host names, IP literals and `*.example.com` patterns (`sandbox.network.allowedHosts`). */
  allowedHosts: readonly string[];
  /** The folder for the proxy's Unix socket; the sandbox binds it so the bridge can reach the socket. */
  socketDir: string;
}

export interface NetworkProxy {
  /** The proxy's Unix socket (mode 0600), for `bridgeArgv`. */
  socketPath: string;
  /** Stops accepting, ends every open tunnel and request, and removes the socket. */
  close(): Promise<void>;
}

/** Longest path a Unix socket address holds on Linux (108 bytes with the terminating NUL). */
const MAX_SOCKET_PATH = 107;

/**
 * Starts the host-allowlisting HTTP proxy that sandboxed commands reach through the bridge: `CONNECT
 * host:port` opens a tunnel (HTTPS and any other TCP protocol), an absolute-URI request (`GET
 * http://host/path`) is forwarded. Everything else gets an HTTP error whose body says why, in words a
 * model can act on. It logs nothing: requests carry tokens in their headers.
 */
export async function startNetworkProxy(options: NetworkProxyOptions): Promise<NetworkProxy> {
  const rules = parseAllowedHosts(options.allowedHosts);
  const socketPath = join(options.socketDir, `proxy-${randomBytes(4).toString("hex")}.sock`);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new Error(`the network proxy's socket path is too long for a Unix socket: ${socketPath}`);
  }
  const closing = new AbortController();
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    if (closing.signal.aborted) socket.destroy();
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };

  // No request timeout: a sandboxed upload may take longer than Node's default 5 minutes.
  const server = createServer({ requestTimeout: 0 });
  server.on("connection", track);
  server.on("request", (req, res) => void forward(rules, req, res, closing.signal, track));
  server.on("connect", (req: IncomingMessage, client: Duplex, head: Buffer) => {
    void tunnel(rules, req.url ?? "", client, head, closing.signal, track);
  });

  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(socketPath, () => {
      server.removeListener("error", fail);
      done();
    });
  });
  // Until this chmod the socket's mode follows the umask (under the usual 022, group and others lack the
  // write permission that connecting needs); socketDir, private to the user, covers that moment.
  await chmod(socketPath, 0o600);

  let closed: Promise<void> | undefined;
  return {
    socketPath,
    close() {
      closed ??= (async () => {
        closing.abort();
        const stopped = new Promise<void>((done) => server.close(() => done()));
        for (const socket of sockets) socket.destroy();
        await stopped;
        await rm(socketPath, { force: true });
      })();
      return closed;
    },
  };
}

/** `CONNECT host:port`: answers 200 once the upstream connection is open, then copies bytes both ways. */
async function tunnel(
  rules: readonly HostRule[],
  authority: string,
  client: Duplex,
  head: Buffer,
  signal: AbortSignal,
  track: (socket: Duplex) => void,
): Promise<void> {
  client.on("error", () => client.destroy());
  const target = /^(\[[^\]]*\]|[^:[\]]*):(\d{1,5})$/.exec(authority);
  const upstream: Upstream =
    target?.[1] === undefined
      ? {
          ok: false,
          status: 400,
          message: `agentry sandbox proxy: CONNECT needs host:port, got ${authority}`,
        }
      : await openUpstream(rules, target[1], Number(target[2]), signal);
  if (!upstream.ok) {
    client.end(rawResponse(upstream.status, upstream.message));
    return;
  }
  const { socket } = upstream;
  track(socket);
  if (client.destroyed) {
    socket.destroy();
    return;
  }
  socket.on("error", () => client.destroy());
  client.on("close", () => socket.destroy());
  socket.on("close", () => client.destroy());
  client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
  if (head.length > 0) socket.write(head);
  socket.pipe(client);
  client.pipe(socket);
}

/** An absolute-URI request: sent on to its host with the hop-by-hop headers removed, both ways. */
async function forward(
  rules: readonly HostRule[],
  req: IncomingMessage,
  res: ServerResponse,
  signal: AbortSignal,
  track: (socket: Socket) => void,
): Promise<void> {
  let url: URL | undefined;
  try {
    url = new URL(req.url ?? "");
  } catch {}
  if (url?.protocol !== "http:") {
    const got = url === undefined ? "a request for a path" : `a ${url.protocol} URL`;
    return reply(
      res,
      400,
      `agentry sandbox proxy: this is an HTTP proxy; it takes CONNECT host:port (HTTPS and other protocols) ` +
        `or absolute http:// URLs, not ${got}.`,
    );
  }
  const upstream = await openUpstream(rules, url.hostname, Number(url.port || 80), signal);
  if (!upstream.ok) return reply(res, upstream.status, upstream.message);
  const { socket } = upstream;
  track(socket);

  const outgoing = request({
    method: req.method,
    path: `${url.pathname}${url.search}`,
    headers: forwardedHeaders(req.rawHeaders, url.host),
    // The connection is already open to the checked address: no agent, no second DNS lookup.
    createConnection: () => socket,
  });
  outgoing.on("response", (incoming) => {
    res.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, forwardedHeaders(incoming.rawHeaders));
    incoming.pipe(res);
    incoming.on("error", () => res.destroy());
  });
  outgoing.on("error", (error) => {
    if (res.headersSent) res.destroy();
    else reply(res, 502, `agentry sandbox proxy: ${url.host} failed: ${error.message}`);
  });
  res.on("close", () => outgoing.destroy());
  req.pipe(outgoing);
}

/** An error answer; `message` is one or more lines for the person or model behind the command. */
function reply(res: ServerResponse, status: number, message: string): void {
  const body = `${message}\n`;
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

/** An HTTP response written straight to a CONNECT client's socket, which the HTTP server no longer owns. */
function rawResponse(status: 400 | 403 | 502, message: string): string {
  const reason = { 400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway" }[status];
  const body = `${message}\n`;
  return (
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
}
