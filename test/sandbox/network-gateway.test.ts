import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createNetworkGateway, type NetworkGateway } from "../../src/sandbox/network-gateway.ts";
import { scaled } from "../support/time-scale.ts";

const GATEWAY = fileURLToPath(new URL("../../src/sandbox/network-gateway.ts", import.meta.url));

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

  it("close() while a list is still failing to start stops the lists that started, and resolves", async () => {
    const net = gateway();
    const started = await net.proxyFor(["a.example"]);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = "/nonexistent/agentry-tmp";
    let failing: Promise<unknown>;
    try {
      // The folder is asked for as proxyFor is called (TMPDIR is read then); close() comes before the failure.
      failing = net.proxyFor(["b.example"]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    const closing = net.close();
    await expect(failing).rejects.toThrow(/ENOENT/);
    await closing;
    expect(existsSync(started.socketPath)).toBe(false);
  });

  it("removes its sockets' folders when the process exits without close(), whatever the number of lists", async () => {
    // Twelve lists: an exit listener added per list would pass Node's limit of ten and warn on stderr.
    const script = [
      `import { createNetworkGateway } from ${JSON.stringify(GATEWAY)};`,
      "const net = createNetworkGateway();",
      "const folders = [];",
      "for (let i = 0; i < 12; i++) folders.push((await net.proxyFor(['h' + i + '.example'])).socketDir);",
      // One folder already gone (a cleaner of /tmp): the others are still removed, without an error.
      `(await import("node:fs")).rmSync(folders[0], { recursive: true });`,
      "console.log(JSON.stringify(folders));",
      "process.exit(0);",
    ].join("\n");
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: scaled(20_000),
    });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    const folders = JSON.parse(child.stdout) as string[];
    expect(folders).toHaveLength(12);
    for (const folder of folders) {
      expect(basename(folder)).toMatch(/^agentry-net-/);
      expect(existsSync(folder), folder).toBe(false);
    }
  });
});
