// Real servers and real clients for the network proxy's tests: an HTTP server that reports what reached
// it, a TCP echo server, and clients that speak to the proxy's Unix socket as the bridge would.
import { createServer as createHttpServer, request } from "node:http";
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";

export interface Received {
  method: string;
  url: string;
  /** Lower-cased names, as Node parses them. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface TestHttpServer {
  host: string;
  port: number;
  /** `host:port`, as in a URL. */
  authority: string;
  received: Received[];
  close(): Promise<void>;
}

/**
 * An HTTP server on a loopback address that answers `hello from <path>` and records each request. It
 * sends hop-by-hop headers of its own (`keep-alive: timeout=17, max=3`, and `x-private` named by
 * `Connection`) that a proxy must not pass on.
 */
export async function startHttpServer(host = "127.0.0.1"): Promise<TestHttpServer> {
  const received: Received[] = [];
  const server = createHttpServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, {
        "content-type": "text/plain",
        connection: "keep-alive, x-private",
        "keep-alive": "timeout=17, max=3",
        "x-private": "for the proxy only",
        "x-public": "for the client",
      });
      res.end(`hello from ${req.url}`);
    });
  });
  const port = await listen(server, host);
  return {
    host,
    port,
    authority: `${host}:${port}`,
    received,
    close: () => closeServer(server),
  };
}

/** A TCP server that sends back every byte it receives, ending its side when the client ends its. */
export async function startEchoServer(host = "127.0.0.1"): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.pipe(socket);
  });
  const port = await listen(server, host);
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await closeServer(server);
    },
  };
}

/** A port on which nothing listens (taken, then released). */
export async function unusedPort(host = "127.0.0.1"): Promise<number> {
  const server = createServer();
  const port = await listen(server, host);
  await closeServer(server);
  return port;
}

export interface ProxyAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends an absolute-URI request (`GET http://host/path`) to the proxy's Unix socket. */
export function proxyRequest(
  socketPath: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<ProxyAnswer> {
  return new Promise((done, fail) => {
    const req = request({
      socketPath,
      method: options.method ?? "GET",
      path: url,
      headers: { host: new URL(url).host, ...options.headers },
    });
    req.on("error", fail);
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.end(options.body);
  });
}

export interface Tunnel {
  /** The proxy's status line and headers. */
  head: string;
  status: number;
  /** The proxy's socket, left with everything after the head (an error body, or the tunnelled bytes). */
  socket: Socket;
  /** What followed the head in the same reads. */
  rest: string;
}

/** Sends `CONNECT authority` to the proxy's Unix socket and reads the answer's head. */
export function openTunnel(socketPath: string, authority: string, headers = ""): Promise<Tunnel> {
  return new Promise((done, fail) => {
    const socket = connect({ path: socketPath });
    let buffered = "";
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString("latin1");
      const end = buffered.indexOf("\r\n\r\n");
      if (end === -1) return;
      socket.removeListener("data", onData);
      socket.removeListener("error", fail);
      socket.pause();
      const head = buffered.slice(0, end);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      done({ head, status, socket, rest: buffered.slice(end + 4) });
    };
    socket.on("data", onData);
    socket.on("error", fail);
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${headers}\r\n`);
  });
}

/** Everything the socket still sends until it closes; resolves on close (an error counts as a close). */
export function readToClose(socket: Socket, initial = ""): Promise<string> {
  return new Promise((done) => {
    let text = initial;
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("error", () => {});
    socket.on("close", () => done(text));
    socket.resume();
  });
}

/** Waits until `text` has arrived on the socket (which must be in flowing or paused mode, not read). */
export function readUntil(socket: Socket, text: string): Promise<string> {
  return new Promise((done, fail) => {
    let seen = "";
    const onData = (chunk: Buffer | string) => {
      seen += typeof chunk === "string" ? chunk : chunk.toString("latin1");
      if (!seen.includes(text)) return;
      socket.removeListener("data", onData);
      done(seen);
    };
    socket.on("data", onData);
    socket.once("close", () =>
      fail(new Error(`closed before ${JSON.stringify(text)}; got ${JSON.stringify(seen)}`)),
    );
    socket.resume();
  });
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(0, host, () => done((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((done) => {
    server.close(() => done());
    if ("closeAllConnections" in server && typeof server.closeAllConnections === "function") {
      server.closeAllConnections();
    }
  });
}
