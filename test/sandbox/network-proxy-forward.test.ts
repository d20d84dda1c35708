// Absolute-URI requests (`GET http://host/path`) through the proxy's Unix socket to a real HTTP server.
import { mkdtemp, rm, stat } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type NetworkProxy, startNetworkProxy } from "../../src/sandbox/network-proxy.ts";
import { proxyRequest, startHttpServer, type TestHttpServer } from "./network-support.ts";

let socketDir: string;
let server: TestHttpServer;
let proxy: NetworkProxy;
beforeEach(async () => {
  socketDir = await mkdtemp(join(tmpdir(), "agentry-proxy-"));
  server = await startHttpServer();
  proxy = await startNetworkProxy({ allowedHosts: ["127.0.0.1"], socketDir });
});
afterEach(async () => {
  await proxy.close();
  await server.close();
  await rm(socketDir, { recursive: true, force: true });
});

describe("the network proxy forwarding http:// requests", () => {
  it("listens on an owner-only Unix socket in socketDir, removed by close()", async () => {
    expect(proxy.socketPath.startsWith(`${socketDir}/`)).toBe(true);
    const info = await stat(proxy.socketPath);
    expect(info.isSocket()).toBe(true);
    expect(info.mode & 0o777).toBe(0o600);
    await proxy.close();
    await expect(stat(proxy.socketPath)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("sends an allowed request on with its method, path, query and body, and Host from the URL", async () => {
    const answer = await proxyRequest(proxy.socketPath, `http://${server.authority}/items?q=1`, {
      method: "POST",
      headers: { host: "spoofed.example", "content-type": "text/plain" },
      body: "payload",
    });
    expect(answer).toMatchObject({ status: 200, body: "hello from /items?q=1" });
    expect(server.received).toEqual([
      expect.objectContaining({ method: "POST", url: "/items?q=1", body: "payload" }),
    ]);
    expect(server.received[0]?.headers.host).toBe(server.authority);
  });

  it("removes hop-by-hop headers both ways, with those Connection names, and never forwards Proxy-Authorization", async () => {
    const answer = await proxyRequest(proxy.socketPath, `http://${server.authority}/`, {
      headers: {
        connection: "x-private-request",
        "x-private-request": "for the proxy only",
        "proxy-authorization": "Basic c2VjcmV0",
        authorization: "Bearer end-to-end",
      },
    });
    expect(answer.status).toBe(200);
    const sent = server.received[0]?.headers ?? {};
    expect(sent["x-private-request"]).toBeUndefined();
    expect(sent["proxy-authorization"]).toBeUndefined();
    expect(sent.authorization).toBe("Bearer end-to-end");
    expect(answer.headers["x-public"]).toBe("for the client");
    expect(answer.headers["x-private"]).toBeUndefined();
    // The proxy's own connection to the client may have a Keep-Alive header, but not the server's.
    expect(answer.headers["keep-alive"]).not.toBe("timeout=17, max=3");
  });

  it("answers 400, saying what it takes, to a request for a path or for an https:// URL", async () => {
    const forPath = await new Promise<string>((done) => {
      const socket = connect({ path: proxy.socketPath });
      let text = "";
      socket.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
      });
      socket.on("close", () => done(text));
      socket.end("GET /etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    });
    expect(forPath).toMatch(/^HTTP\/1\.1 400 /);
    expect(forPath).toContain("CONNECT host:port");
    const https = await proxyRequest(proxy.socketPath, `https://${server.authority}/`);
    expect(https.status).toBe(400);
    expect(https.body).toContain("a https: URL");
    expect(server.received).toEqual([]);
  });
});
