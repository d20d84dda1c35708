import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createNetworkGateway, type NetworkGateway } from "../../src/sandbox/network-gateway.ts";

const gateways: NetworkGateway[] = [];
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
});

function gateway(): NetworkGateway {
  const made = createNetworkGateway();
  gateways.push(made);
  return made;
}

describe("the network gateway of a process", () => {
  it("runs one proxy per list of hosts, whatever its order, and another for another list", async () => {
    const net = gateway();
    const first = await net.proxyFor(["a.example", "b.example"]);
    expect((await net.proxyFor(["b.example", "a.example"])).socketPath).toBe(first.socketPath);
    const other = await net.proxyFor(["a.example"]);
    expect(other.socketPath).not.toBe(first.socketPath);
    expect(existsSync(first.socketPath) && existsSync(other.socketPath)).toBe(true);
  });

  it("starts a list again after it failed to start, and close() stops every proxy", async () => {
    const net = gateway();
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = "/nonexistent/agentry-tmp";
    try {
      await expect(net.proxyFor(["a.example"])).rejects.toThrow(/ENOENT/);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    const started = await net.proxyFor(["a.example"]);
    expect(existsSync(started.socketPath)).toBe(true);

    await net.close();
    expect(existsSync(started.socketPath)).toBe(false);
    const again = await net.proxyFor(["a.example"]);
    expect(again.socketPath).not.toBe(started.socketPath);
  });
});
