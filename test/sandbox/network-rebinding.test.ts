// DNS rebinding: a name the allowlist admits through a "*." pattern that resolves to this machine or its
// networks. The proxy runs in a bubblewrap mount namespace whose /etc/hosts maps test names to a loopback
// and a link-local address — real name resolution, as a hostile DNS server would answer it.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandbox } from "./network-sandbox-support.ts";
import {
  openTunnel,
  proxyRequest,
  readToClose,
  startHttpServer,
  type TestHttpServer,
} from "./network-support.ts";

const sandbox = probeSandbox();
const PROXY_MAIN = fileURLToPath(new URL("./network-proxy-main.ts", import.meta.url));
const HOSTS = [
  "127.0.0.1 localhost",
  "127.0.0.2 api.rebind.test db.rebind.test",
  "169.254.169.254 metadata.rebind.test",
  // TEST-NET-1: not local, so a pattern admits it (the proxy runs without a network for it: no packet leaves).
  "192.0.2.1 www.rebind.test",
  "::ffff:127.0.0.2 mapped.rebind.test",
].join("\n");

if (!sandbox.ok && process.env.CI === "true") {
  it("has a working bubblewrap under CI", () => {
    throw new Error(`${sandbox.reason}: CI must install the bubblewrap package (.ci/run)`);
  });
}

const title = `a name that resolves to a non-public address${sandbox.ok ? "" : ` — skipped: ${sandbox.reason}`}`;
describe.skipIf(!sandbox.ok)(title, () => {
  let dir: string;
  let server: TestHttpServer;
  const stops: Array<() => void> = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "agentry-rebind-"));
    await writeFile(join(dir, "hosts"), `${HOSTS}\n`);
    server = await startHttpServer("127.0.0.2");
  });
  afterAll(async () => {
    for (const stop of stops) stop();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Starts the proxy in its own process, seeing the test's /etc/hosts; resolves to its socket path. */
  function proxyWithHosts(allowedHosts: string[], { network = true } = {}): Promise<string> {
    const flags = ["--unshare-user", ...(network ? [] : ["--unshare-net"]), "--ro-bind", "/", "/"];
    flags.push("--dev", "/dev", "--proc", "/proc");
    const binds = ["--bind", dir, dir, "--ro-bind", join(dir, "hosts"), "/etc/hosts", "--die-with-parent"];
    const argv = [...flags, ...binds, "--", process.execPath, PROXY_MAIN, dir, JSON.stringify(allowedHosts)];
    const child = spawn("bwrap", argv, { stdio: ["ignore", "pipe", "inherit"] });
    stops.push(() => child.kill("SIGTERM"));
    return new Promise((done, fail) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        if (out.endsWith("\n")) done(out.trim());
      });
      child.on("exit", (code) => fail(new Error(`the proxy exited with ${code} before listening`)));
    });
  }

  it("is refused when only a pattern admits it, naming the address and its kind, by request and by CONNECT", async () => {
    const socketPath = await proxyWithHosts(["*.rebind.test"]);
    const answer = await proxyRequest(socketPath, `http://api.rebind.test:${server.port}/`);
    expect(answer.status).toBe(403);
    expect(answer.body).toBe(
      "agentry sandbox: network access to api.rebind.test is not allowed: it resolves to 127.0.0.2 (loopback), " +
        "and loopback, link-local and private addresses are reachable only when the host or the address is " +
        'listed on its own, not through a "*." pattern.\nTo allow it, add "api.rebind.test" or the address to ' +
        "sandbox.network.allowedHosts in the agentry config.\n",
    );

    const metadata = await proxyRequest(socketPath, "http://metadata.rebind.test/latest/meta-data/");
    expect(metadata.status).toBe(403);
    expect(metadata.body).toContain("169.254.169.254 (link-local)");

    const tunnel = await openTunnel(socketPath, `api.rebind.test:${server.port}`);
    expect(tunnel.status).toBe(403);
    expect(await readToClose(tunnel.socket, tunnel.rest)).toContain("127.0.0.2 (loopback)");
    expect(server.received).toEqual([]);
  });

  it("is reached when the name itself, or the address, is listed", async () => {
    const byName = await proxyWithHosts(["*.rebind.test", "db.rebind.test"]);
    expect(await proxyRequest(byName, `http://db.rebind.test:${server.port}/by-name`)).toMatchObject({
      status: 200,
      body: "hello from /by-name",
    });
    expect((await proxyRequest(byName, `http://api.rebind.test:${server.port}/`)).status).toBe(403);

    const byAddress = await proxyWithHosts(["*.rebind.test", "127.0.0.2"]);
    expect(await proxyRequest(byAddress, `http://api.rebind.test:${server.port}/by-address`)).toMatchObject({
      status: 200,
      body: "hello from /by-address",
    });
    expect(server.received.map((request) => request.headers.host)).toEqual([
      `db.rebind.test:${server.port}`,
      `api.rebind.test:${server.port}`,
    ]);
  });

  it("a public address is reached through a pattern alone", async () => {
    // Without a network the connection fails at once: what counts is that it was tried, not refused.
    const socketPath = await proxyWithHosts(["*.rebind.test"], { network: false });
    const answer = await proxyRequest(socketPath, "http://www.rebind.test/");
    expect(answer.status).toBe(502);
    expect(answer.body).toContain("agentry sandbox proxy: cannot connect to www.rebind.test:80 (192.0.2.1: ");
  });

  it("an IPv4-mapped address a name resolves to is listed by any spelling of it", async () => {
    const socketPath = await proxyWithHosts(["*.rebind.test", "::ffff:7f00:2"]);
    const answer = await proxyRequest(socketPath, `http://mapped.rebind.test:${server.port}/mapped`);
    expect(answer).toMatchObject({ status: 200, body: "hello from /mapped" });
  });
});
