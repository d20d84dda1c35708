// Commands in a real bubblewrap sandbox with no network but loopback (`--unshare-net`), reaching a real
// HTTP server on this machine only through the bridge and the proxy. The server listens on 127.0.0.2 —
// loopback, so the proxy needs it listed, and outside NO_PROXY, so clients use the proxy as they would
// for any remote host; inside the sandbox 127.0.0.2 is the sandbox's own loopback, where nothing listens.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxyEnv } from "../../src/sandbox/network-bridge.ts";
import { type NetworkProxy, startNetworkProxy } from "../../src/sandbox/network-proxy.ts";
import { scaled } from "../support/time-scale.ts";
import {
  curlClient,
  type HttpClient,
  holdTunnel,
  installed,
  nodeClient,
  probeSandbox,
  sandboxed,
  viaProxy,
} from "./network-sandbox-support.ts";
import { startEchoServer, startHttpServer, type TestHttpServer } from "./network-support.ts";

const sandbox = probeSandbox();
const PORT = 3128;
const env = proxyEnv(PORT);

if (!sandbox.ok && process.env.CI === "true") {
  it("has a working bubblewrap under CI", () => {
    throw new Error(`${sandbox.reason}: CI must install the bubblewrap package (.ci/run)`);
  });
}

/**
 * The clients, each with what it shows of the proxy's 403: curl prints the body; Node's fetch tunnels
 * http:// URLs with CONNECT too and reports only the status.
 */
const REFUSAL_TEXT = [
  "403",
  "network access to blocked.example is not allowed",
  "sandbox.network.allowedHosts",
];
const clients: Array<{ name: string; client: HttpClient; refusal: string[] }> = [
  { name: "node's fetch", client: nodeClient, refusal: ["Proxy response (403)"] },
  ...(installed("curl") ? [{ name: "curl", client: curlClient, refusal: REFUSAL_TEXT }] : []),
];

const title = `network from the sandbox${sandbox.ok ? "" : ` — skipped: ${sandbox.reason}`}`;
describe.skipIf(!sandbox.ok)(title, () => {
  let socketDir: string;
  let server: TestHttpServer;
  let proxy: NetworkProxy;
  beforeAll(async () => {
    socketDir = await mkdtemp(join(tmpdir(), "agentry-sandbox-net-"));
    server = await startHttpServer("127.0.0.2");
    proxy = await startNetworkProxy({ allowedHosts: ["127.0.0.2", "*.allowed.example"], socketDir });
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
    await rm(socketDir, { recursive: true, force: true });
  });
  const bridge = () => ({ socketPath: proxy.socketPath, port: PORT });

  describe.each(clients)("with $name", ({ client, refusal }) => {
    it("reaches an allowed host through the bridge and the proxy, with only proxyEnv to go on", async () => {
      const run = sandboxed(client.get(`http://${server.authority}/${client.name}`), {
        socketDir,
        env,
        bridge: bridge(),
      });
      expect((await run.exit).code).toBe(0);
      expect(run.output()).toContain(`hello from /${client.name}`);
      expect(run.output()).toContain("200");
    });

    it("gets the proxy's 403 for a host not allowed (with curl, the text naming the host and the config key)", async () => {
      const run = sandboxed(client.get("http://blocked.example/"), { socketDir, env, bridge: bridge() });
      await run.exit;
      for (const text of refusal) expect(run.output()).toContain(text);
    });

    it("tunnels with CONNECT to an allowed host", async () => {
      const path = `/tunnelled-${client.name}`;
      const run = sandboxed(client.tunnel(server.authority, path), { socketDir, env, bridge: bridge() });
      expect((await run.exit).code).toBe(0);
      expect(run.output()).toContain(`hello from ${path}`);
    });
  });

  it("reaches nothing without the bridge: not the proxy's port, not this machine's server, not the internet", async () => {
    const direct = (url: string) => [
      process.execPath,
      "-e",
      `fetch("${url}").then(() => console.log("reached"))`,
    ];
    const attempts: Array<[string[], Record<string, string>]> = [
      [nodeClient.get(`http://${server.authority}/through-proxy-env`), env],
      [viaProxy(PORT, `http://${server.authority}/explicit-proxy`), env],
      [direct(`http://${server.authority}/direct`), {}],
      [direct("http://1.1.1.1/"), {}],
    ];
    for (const [argv, withEnv] of attempts) {
      const run = sandboxed(argv, { socketDir, env: withEnv });
      expect((await run.exit).code, run.output()).not.toBe(0);
      expect(run.output()).not.toContain("reached");
    }
    const paths = server.received.map((request) => request.url);
    for (const path of ["/through-proxy-env", "/explicit-proxy", "/direct"])
      expect(paths).not.toContain(path);
  });

  it("reaches this machine's loopback when 127.0.0.1 or localhost is listed on its own", async () => {
    const local = await startHttpServer("127.0.0.1");
    for (const listed of ["127.0.0.1", "localhost"]) {
      const own = await startNetworkProxy({ allowedHosts: [listed], socketDir });
      try {
        const url = `http://${listed}:${local.port}/listed-${listed}`;
        const run = sandboxed(viaProxy(PORT, url), {
          socketDir,
          env,
          bridge: { socketPath: own.socketPath, port: PORT },
        });
        expect((await run.exit).code).toBe(0);
        expect(run.output()).toBe(`200\nhello from /listed-${listed}`);
      } finally {
        await own.close();
      }
    }
    await local.close();
  });

  it("close() cuts a tunnel a sandboxed command holds open", async () => {
    const echo = await startEchoServer("127.0.0.2");
    const own = await startNetworkProxy({ allowedHosts: ["127.0.0.2"], socketDir });
    const run = sandboxed(holdTunnel(`127.0.0.2:${echo.port}`), {
      socketDir,
      env,
      bridge: { socketPath: own.socketPath, port: PORT },
    });
    await expect.poll(run.output, { timeout: scaled(10_000) }).toContain("open");
    // The tunnel is held open until cut: not cut by close(), the command would hang.
    await own.close();
    expect((await run.exit).code).toBe(0);
    expect(run.output()).toBe("open\nclosed\n");
    await echo.close();
  });
});
