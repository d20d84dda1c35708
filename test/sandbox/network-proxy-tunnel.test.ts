// CONNECT tunnels through the proxy's Unix socket to a real TCP echo server, and close() ending them.
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type NetworkProxy, startNetworkProxy } from "../../src/sandbox/network-proxy.ts";
import { openTunnel, readToClose, readUntil, startEchoServer } from "./network-support.ts";

let socketDir: string;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
let proxy: NetworkProxy;
beforeEach(async () => {
  socketDir = await mkdtemp(join(tmpdir(), "agentry-proxy-"));
  echo = await startEchoServer();
  proxy = await startNetworkProxy({ allowedHosts: ["127.0.0.1"], socketDir });
});
afterEach(async () => {
  await proxy.close();
  await echo.close();
  await rm(socketDir, { recursive: true, force: true });
});

describe("CONNECT tunnels", () => {
  it("answers 200 and then carries bytes both ways, as TLS would use it", async () => {
    const tunnel = await openTunnel(proxy.socketPath, `127.0.0.1:${echo.port}`);
    expect(tunnel.head).toBe("HTTP/1.1 200 Connection Established");
    tunnel.socket.write("\x16\x03\x01 binary-ish hello\n");
    expect(await readUntil(tunnel.socket, "hello\n")).toBe("\x16\x03\x01 binary-ish hello\n");
    tunnel.socket.destroy();
  });

  it("passes on bytes sent right behind the CONNECT, and a half-close, still delivering the answer", async () => {
    const socket = connect({ path: proxy.socketPath, allowHalfOpen: true });
    socket.end(`CONNECT 127.0.0.1:${echo.port} HTTP/1.1\r\nHost: x\r\n\r\nearly bytes`);
    const text = await readToClose(socket);
    expect(text).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nearly bytes$/);
  });

  it("close() cuts every open tunnel, closes the socket and refuses new connections", async () => {
    const first = await openTunnel(proxy.socketPath, `127.0.0.1:${echo.port}`);
    const second = await openTunnel(proxy.socketPath, `127.0.0.1:${echo.port}`);
    first.socket.write("ping\n");
    await readUntil(first.socket, "ping\n");
    // Open tunnels that close() did not cut would keep these reads waiting.
    const ended = Promise.all([readToClose(first.socket), readToClose(second.socket)]);
    await proxy.close();
    await ended;
    await expect(
      new Promise((done, fail) => connect({ path: proxy.socketPath }).on("connect", done).on("error", fail)),
    ).rejects.toMatchObject({ code: "ENOENT" });
  });
});
