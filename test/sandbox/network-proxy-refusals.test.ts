// What the proxy refuses, and how it says so: 403 for a host or an address the allowlist does not admit,
// 502 when the upstream fails. Each answer's body must tell a model what to change, and must never carry
// the request's headers back.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type NetworkProxy, startNetworkProxy } from "../../src/sandbox/network-proxy.ts";
import {
  openTunnel,
  proxyRequest,
  readToClose,
  startHttpServer,
  type TestHttpServer,
  unusedPort,
} from "./network-support.ts";

const SECRET = "Bearer sk-test-never-echo-0123456789";

let socketDir: string;
let server: TestHttpServer;
const proxies: NetworkProxy[] = [];
beforeAll(async () => {
  socketDir = await mkdtemp(join(tmpdir(), "agentry-proxy-"));
  server = await startHttpServer();
});
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  server.received.length = 0;
});
afterAll(async () => {
  await server.close();
  await rm(socketDir, { recursive: true, force: true });
});

async function proxyAllowing(...allowedHosts: string[]): Promise<NetworkProxy> {
  const proxy = await startNetworkProxy({ allowedHosts, socketDir });
  proxies.push(proxy);
  return proxy;
}

describe("the network proxy's refusals", () => {
  it("answers 403 to a host not in the allowlist, naming it and the config key, without echoing headers", async () => {
    const proxy = await proxyAllowing("registry.npmjs.org", "*.github.com");
    const answer = await proxyRequest(proxy.socketPath, "http://evil.example/upload", {
      headers: { authorization: SECRET, cookie: SECRET },
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain("network access to evil.example is not allowed");
    expect(answer.body).toContain('add "evil.example" to sandbox.network.allowedHosts');
    expect(JSON.stringify(answer)).not.toContain(SECRET);

    const tunnel = await openTunnel(proxy.socketPath, "github.com:443", `Proxy-Authorization: ${SECRET}\r\n`);
    expect(tunnel.status).toBe(403);
    const body = await readToClose(tunnel.socket, tunnel.rest);
    expect(body).toContain("network access to github.com is not allowed");
    expect(`${tunnel.head}${body}`).not.toContain(SECRET);
  });

  it("admits an IP literal only when listed literally: a listed name does not admit its address", async () => {
    const byName = await proxyAllowing("localhost");
    const literal = await proxyRequest(byName.socketPath, `http://${server.authority}/`);
    expect(literal.status).toBe(403);
    expect(literal.body).toContain(`add "127.0.0.1" to sandbox.network.allowedHosts`);
    const spelledOtherwise = await openTunnel(byName.socketPath, `2130706433:${server.port}`);
    expect(spelledOtherwise.status).toBe(403);
    expect(server.received).toEqual([]);

    // Listed explicitly, a name or an address on loopback is reachable: this is how a test (or a user's
    // local registry) lets commands reach this machine.
    const viaName = await proxyRequest(byName.socketPath, `http://localhost:${server.port}/by-name`);
    expect(viaName).toMatchObject({ status: 200, body: "hello from /by-name" });
    const byAddress = await proxyAllowing("127.0.0.1");
    const viaAddress = await proxyRequest(byAddress.socketPath, `http://${server.authority}/by-address`);
    expect(viaAddress).toMatchObject({ status: 200, body: "hello from /by-address" });
  });

  it("answers 502 with the reason when the upstream refuses the connection or the name does not resolve", async () => {
    const proxy = await proxyAllowing("127.0.0.1", "nothing.invalid");
    const closedPort = await unusedPort();
    const refused = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${closedPort}/`, {
      headers: { authorization: SECRET },
    });
    expect(refused.status).toBe(502);
    expect(refused.body).toContain(`cannot connect to 127.0.0.1:${closedPort}`);
    expect(refused.body).toContain("ECONNREFUSED");
    expect(refused.body).not.toContain(SECRET);

    const tunnel = await openTunnel(proxy.socketPath, `127.0.0.1:${closedPort}`);
    expect(tunnel.status).toBe(502);
    expect(await readToClose(tunnel.socket, tunnel.rest)).toContain("ECONNREFUSED");

    const unresolved = await proxyRequest(proxy.socketPath, "http://nothing.invalid/");
    expect(unresolved.status).toBe(502);
    expect(unresolved.body).toContain("cannot resolve nothing.invalid");
  });

  it("refuses to start on an allowlist entry it cannot read, naming the entry", async () => {
    await expect(startNetworkProxy({ allowedHosts: ["github.com:443"], socketDir })).rejects.toThrow(
      '"github.com:443" is not a host name',
    );
  });
});
