// The network proxy at its edges: what it makes of a malformed CONNECT or port, how its answers read,
// and that connections end together — a client gone ends its upstream, an upstream gone ends its
// client, and close() returns even while a client is half-way through a request.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type NetworkProxy, startNetworkProxy } from "../../src/sandbox/network-proxy.ts";
import { openTunnel, proxyRequest, readToClose, readUntil, unusedPort } from "./network-support.ts";

let socketDir: string;
const proxies: NetworkProxy[] = [];
const servers: Server[] = [];
beforeAll(async () => {
  socketDir = await mkdtemp(join(tmpdir(), "agentry-proxy-"));
});
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  for (const server of servers.splice(0)) {
    if ("closeAllConnections" in server && typeof server.closeAllConnections === "function")
      server.closeAllConnections();
    server.close();
  }
});
afterAll(async () => {
  await rm(socketDir, { recursive: true, force: true });
});

async function proxyAllowing(...allowedHosts: string[]): Promise<NetworkProxy> {
  const proxy = await startNetworkProxy({ allowedHosts, socketDir });
  proxies.push(proxy);
  return proxy;
}

/** A TCP server on 127.0.0.1 running `onSocket` for each connection; resolves to its port. */
async function tcpServer(onSocket: (socket: Socket) => void): Promise<number> {
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    socket.on("error", () => {});
    onSocket(socket);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return (server.address() as AddressInfo).port;
}

/** Resolves when `socket` closes; rejects after `ms` (only a hang takes that long). */
function closed(socket: Socket, ms = 5_000): Promise<void> {
  return new Promise((done, fail) => {
    if (socket.closed) return done();
    const timer = setTimeout(() => fail(new Error("the socket stayed open")), ms);
    socket.once("close", () => {
      clearTimeout(timer);
      done();
    });
  });
}

describe("the network proxy's answers", () => {
  it("a CONNECT that does not name host:port is a 400 naming what it got; an unlisted host in brackets a 403", async () => {
    const proxy = await proxyAllowing("127.0.0.1");
    for (const authority of ["127.0.0.1", "[bad:80", "127.0.0.1:80x", "a:b:80"]) {
      const tunnel = await openTunnel(proxy.socketPath, authority);
      expect(tunnel.head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(await readToClose(tunnel.socket, tunnel.rest)).toContain(
        `agentry sandbox proxy: CONNECT needs host:port, got ${authority}`,
      );
    }
    const ipv6 = await openTunnel(proxy.socketPath, "[::1]:80");
    expect(ipv6.head).toMatch(/^HTTP\/1\.1 403 Forbidden\r\ncontent-type: text\/plain; charset=utf-8\r\n/);
    expect(await readToClose(ipv6.socket, ipv6.rest)).toContain("network access to ::1 is not allowed");
  });

  it("a port outside 1–65535, or a host it cannot read, is a 400; port 1 and 65535 are tried", async () => {
    const proxy = await proxyAllowing("127.0.0.1");
    for (const authority of ["127.0.0.1:0", "127.0.0.1:65536", "a%b:80"]) {
      const tunnel = await openTunnel(proxy.socketPath, authority);
      expect(tunnel.status).toBe(400);
      expect(await readToClose(tunnel.socket, tunnel.rest)).toContain(
        "agentry sandbox proxy: not a valid host and port:",
      );
    }
    const zero = await proxyRequest(proxy.socketPath, "http://127.0.0.1:0/");
    expect(zero.status).toBe(400);
    for (const port of [1, 65_535]) {
      const tunnel = await openTunnel(proxy.socketPath, `127.0.0.1:${port}`);
      expect(tunnel.head).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
      await readToClose(tunnel.socket, tunnel.rest);
    }
  });

  it("says exactly why a connection failed, and how to allow a host and its subdomains", async () => {
    const proxy = await proxyAllowing("127.0.0.1");
    const port = await unusedPort();
    const refused = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${port}/`);
    expect(refused.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(refused.body).toBe(
      `agentry sandbox proxy: cannot connect to 127.0.0.1:${port} (127.0.0.1: connect ECONNREFUSED 127.0.0.1:${port})\n`,
    );
    const forbidden = await proxyRequest(proxy.socketPath, "http://example.org/");
    expect(forbidden.body).toBe(
      "agentry sandbox: network access to example.org is not allowed: it is not in sandbox.network.allowedHosts.\n" +
        'To allow it, add "example.org" to sandbox.network.allowedHosts in the agentry config ' +
        '("*.example.com" there allows every subdomain of example.com).\n',
    );
  });

  it("a request for a path says so, and an upstream that fails mid-request is a 502 naming it", async () => {
    const proxy = await proxyAllowing("127.0.0.1");
    const forPath = await new Promise<string>((done) => {
      const socket = connect({ path: proxy.socketPath });
      let text = "";
      socket.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
      });
      socket.on("close", () => done(text));
      socket.end("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    });
    expect(forPath).toContain("or absolute http:// URLs, not a request for a path.");

    const port = await tcpServer((socket) => socket.once("data", () => socket.destroy()));
    const failed = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${port}/`);
    expect(failed.status).toBe(502);
    expect(failed.body).toMatch(new RegExp(`^agentry sandbox proxy: 127\\.0\\.0\\.1:${port} failed: `));
  });

  it("refuses to start when its socket's path would be too long for a Unix socket", async () => {
    const deep = join(socketDir, "d".repeat(120));
    await expect(startNetworkProxy({ allowedHosts: [], socketDir: deep })).rejects.toThrow(
      "the network proxy's socket path is too long for a Unix socket",
    );
  });

  it("listens on a socket path of 107 bytes, the longest Linux takes, and refuses one of 108", async () => {
    // The socket's name, proxy-<8 hex digits>.sock, and its slash take 20 bytes.
    const folderOf = async (pathBytes: number) => {
      const folder = join(socketDir, "d".repeat(pathBytes - 20 - socketDir.length - 1));
      await mkdir(folder, { recursive: true });
      return folder;
    };
    const longest = await startNetworkProxy({ allowedHosts: [], socketDir: await folderOf(107) });
    proxies.push(longest);
    expect(Buffer.byteLength(longest.socketPath)).toBe(107);
    expect((await proxyRequest(longest.socketPath, "http://example.org/")).status).toBe(403);
    await expect(startNetworkProxy({ allowedHosts: [], socketDir: await folderOf(108) })).rejects.toThrow(
      "too long for a Unix socket",
    );
  });

  it("a socket folder that does not exist is an error from startNetworkProxy, not a crash", async () => {
    // ENOENT on Linux; gVisor says EACCES.
    const missing = join(socketDir, "missing");
    await expect(startNetworkProxy({ allowedHosts: [], socketDir: missing })).rejects.toThrow(
      new RegExp(`^listen E[A-Z]+: .* ${missing}/proxy-[0-9a-f]{8}\\.sock$`),
    );
  });
});

describe("the network proxy's connections end together", () => {
  it("close() returns while a client is half-way through its request, and ends that client", async () => {
    const proxy = await proxyAllowing("127.0.0.1");
    const client = connect({ path: proxy.socketPath });
    await new Promise((done) => client.once("connect", done));
    client.on("error", () => {});
    client.write("GET http://127.0.0.1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
    await new Promise((done) => setTimeout(done, 50));
    await proxy.close();
    await closed(client);
  });

  it("a tunnel's client going away closes its upstream connection", async () => {
    const upstream: Socket[] = [];
    // It echoes, and goes on writing after the client's side ended: the connection closes only when
    // the proxy has let go of it altogether.
    const port = await tcpServer((socket) => {
      upstream.push(socket);
      socket.on("data", (chunk) => socket.write(chunk));
      socket.on("end", () => {
        const keepWriting = setInterval(() => socket.write("still there?"), 20);
        socket.once("close", () => clearInterval(keepWriting));
      });
    });
    const proxy = await proxyAllowing("127.0.0.1");
    const tunnel = await openTunnel(proxy.socketPath, `127.0.0.1:${port}`);
    tunnel.socket.write("ping");
    await readUntil(tunnel.socket, "ping");
    tunnel.socket.destroy();
    await closed(upstream[0] as Socket);
  });

  it("a tunnel's upstream resetting its connection ends the client, and the proxy goes on", async () => {
    const port = await tcpServer((socket) => socket.once("data", () => socket.resetAndDestroy()));
    const proxy = await proxyAllowing("127.0.0.1");
    const tunnel = await openTunnel(proxy.socketPath, `127.0.0.1:${port}`);
    tunnel.socket.on("error", () => {});
    tunnel.socket.write("hello");
    tunnel.socket.resume();
    await closed(tunnel.socket);

    const again = await openTunnel(proxy.socketPath, `127.0.0.1:${port}`);
    expect(again.status).toBe(200);
    again.socket.destroy();
  });

  it("bytes a client sends after its upstream finished sending still reach the upstream", async () => {
    const heard: string[] = [];
    const port = await tcpServer((socket) => {
      socket.end("bye\n");
      socket.setEncoding("utf8").on("data", (chunk: string) => heard.push(chunk));
    });
    const proxy = await proxyAllowing("127.0.0.1");
    const client = connect({ path: proxy.socketPath, allowHalfOpen: true });
    client.on("error", () => {});
    client.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await readUntil(client, "bye\n");
    client.write("late words");
    const deadline = Date.now() + 5_000;
    while (heard.join("") !== "late words" && Date.now() < deadline)
      await new Promise((done) => setTimeout(done, 10));
    expect(heard.join("")).toBe("late words");
    client.destroy();
  });

  it("a forwarded answer cut short by its server ends the client's connection", async () => {
    const proxy = await proxyAllowing("127.0.0.1");
    const cut = createHttpServer((_req, res) => {
      res.writeHead(200, { "content-length": "100" });
      res.write("ten bytes!");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const port = await httpServer(cut);
    const client = connect({ path: proxy.socketPath });
    client.on("error", () => {});
    client.write(`GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await readUntil(client, "ten bytes!");
    await closed(client);
  });

  it("an upstream that resets after its answer began, while the request body still flows, ends the client; the proxy goes on", async () => {
    const upstream: Socket[] = [];
    const port = await tcpServer((socket) => {
      upstream.push(socket);
      socket.once("data", () => socket.write("HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nten bytes!"));
    });
    const proxy = await proxyAllowing("127.0.0.1");
    const client = connect({ path: proxy.socketPath });
    client.on("error", () => {});
    client.write(
      `POST http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        "Transfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n",
    );
    await readUntil(client, "ten bytes!");
    (upstream[0] as Socket).resetAndDestroy();
    await closed(client);

    const after = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${await unusedPort()}/`);
    expect(after.status).toBe(502);
  });

  it("a client gone mid-answer ends the request to the server", async () => {
    const proxy = await proxyAllowing("127.0.0.1");
    let serverSideClosed = false;
    const slow = createHttpServer((req, res) => {
      res.writeHead(200);
      res.write("first part");
      req.socket.once("close", () => {
        serverSideClosed = true;
      });
    });
    const port = await httpServer(slow);
    const client = connect({ path: proxy.socketPath });
    client.on("error", () => {});
    client.write(`GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await readUntil(client, "first part");
    client.destroy();
    const deadline = Date.now() + 5_000;
    while (!serverSideClosed && Date.now() < deadline) await new Promise((done) => setTimeout(done, 10));
    expect(serverSideClosed).toBe(true);
  });
});

async function httpServer(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return (server.address() as AddressInfo).port;
}
