// The bridge script as a real process on this machine (the sandboxed runs are in network-sandbox.test.ts):
// it relays its port to the proxy, runs the command only once it listens, and passes on signals and
// the exit status.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bridgeArgv, NETWORK_BRIDGE_SCRIPT, proxyEnv } from "../../src/sandbox/network-bridge.ts";
import { type NetworkProxy, startNetworkProxy } from "../../src/sandbox/network-proxy.ts";
import { scaled } from "../support/time-scale.ts";
import { start, viaProxy } from "./network-sandbox-support.ts";
import { startHttpServer, type TestHttpServer, unusedPort } from "./network-support.ts";

let socketDir: string;
let server: TestHttpServer;
let proxy: NetworkProxy;
beforeAll(async () => {
  socketDir = await mkdtemp(join(tmpdir(), "agentry-bridge-"));
  server = await startHttpServer();
  proxy = await startNetworkProxy({ allowedHosts: ["127.0.0.1"], socketDir });
});
afterAll(async () => {
  await proxy.close();
  await server.close();
  await rm(socketDir, { recursive: true, force: true });
});

/** Runs `argv` through the bridge, on this machine's network. */
const throughBridge = (port: number, argv: string[]) => start(bridgeArgv(proxy.socketPath, port, argv));

describe("the network bridge", () => {
  it("needs a command to run", () => {
    expect(() => bridgeArgv("/run/proxy.sock", 3128, [])).toThrow("bridgeArgv: no command to run");
  });

  it("relays 127.0.0.1:<port> to the proxy's socket for the command it runs", async () => {
    const port = await unusedPort();
    const run = throughBridge(port, viaProxy(port, `http://${server.authority}/via-bridge`));
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(run.output()).toBe("200\nhello from /via-bridge");
  });

  it("does not run the command when it cannot listen, and exits 125 saying why", async () => {
    const taken = createServer();
    const port = await new Promise<number>((done) =>
      taken.listen(0, "127.0.0.1", () => done((taken.address() as { port: number }).port)),
    );
    const marker = join(socketDir, "ran");
    const run = throughBridge(port, ["touch", marker]);
    expect((await run.exit).code).toBe(125);
    expect(run.output()).toContain(`agentry network bridge: cannot listen on 127.0.0.1:${port}`);
    expect(existsSync(marker)).toBe(false);
    taken.close();
  });

  it("exits with the command's code, 128 + the signal that killed it, 127 when it is not found", async () => {
    expect((await throughBridge(await unusedPort(), ["sh", "-c", "exit 7"]).exit).code).toBe(7);
    expect((await throughBridge(await unusedPort(), ["sh", "-c", "kill -KILL $$"]).exit).code).toBe(137);
    const missing = throughBridge(await unusedPort(), ["no-such-command-here"]);
    expect((await missing.exit).code).toBe(127);
    expect(missing.output()).toContain("cannot run no-such-command-here");
  });

  it.each([
    ["SIGTERM", 40],
    ["SIGINT", 41],
    ["SIGHUP", 42],
  ] as const)("passes %s on to the command", async (signal, code) => {
    const script = `trap 'exit 40' TERM; trap 'exit 41' INT; trap 'exit 42' HUP; echo ready; while :; do sleep 0.05; done`;
    const run = throughBridge(await unusedPort(), ["sh", "-c", script]);
    await expect.poll(run.output, { timeout: scaled(5000) }).toContain("ready");
    run.child.kill(signal);
    expect(await run.exit).toEqual({ code, signal: null });
  });

  it("is run by agentry's own Node, with the environment that points HTTP clients at it", () => {
    expect(existsSync(NETWORK_BRIDGE_SCRIPT)).toBe(true);
    expect(bridgeArgv("/s/proxy.sock", 3128, ["npm", "install"])).toEqual([
      process.execPath,
      NETWORK_BRIDGE_SCRIPT,
      "/s/proxy.sock",
      "3128",
      "--",
      "npm",
      "install",
    ]);
    expect(proxyEnv(3128)).toEqual({
      HTTP_PROXY: "http://127.0.0.1:3128",
      HTTPS_PROXY: "http://127.0.0.1:3128",
      http_proxy: "http://127.0.0.1:3128",
      https_proxy: "http://127.0.0.1:3128",
      NO_PROXY: "localhost,127.0.0.1,::1",
      no_proxy: "localhost,127.0.0.1,::1",
      NODE_USE_ENV_PROXY: "1",
    });
  });
});
