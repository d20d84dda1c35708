import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type NetworkProxy, startNetworkProxy } from "./network-proxy.ts";

/** A running proxy for one list of hosts, and the private folder its socket lives in. */
export interface ProxyHandle {
  socketPath: string;
  socketDir: string;
}

/**
 * The network proxies of a process, one per distinct list of allowed hosts (a child's list may be
 * narrower than its parent's), started on first use and stopped when the process exits.
 */
export interface NetworkGateway {
  proxyFor(allowedHosts: readonly string[]): Promise<ProxyHandle>;
  close(): Promise<void>;
}

export function createNetworkGateway(): NetworkGateway {
  const running = new Map<string, Promise<ProxyHandle & { proxy: NetworkProxy }>>();
  const folders: string[] = [];
  let cleanupInstalled = false;
  const start = async (hosts: readonly string[]) => {
    // mkdtemp makes the folder 0700: only agentry's user reaches the socket, before it is chmod-ed.
    const socketDir = await mkdtemp(join(tmpdir(), "agentry-net-"));
    folders.push(socketDir);
    if (!cleanupInstalled) {
      cleanupInstalled = true;
      process.once("exit", () => {
        for (const folder of folders) rmSync(folder, { recursive: true, force: true });
      });
    }
    const proxy = await startNetworkProxy({ allowedHosts: hosts, socketDir });
    return { proxy, socketPath: proxy.socketPath, socketDir };
  };
  return {
    proxyFor(allowedHosts) {
      const key = JSON.stringify([...allowedHosts].sort());
      let handle = running.get(key);
      if (handle === undefined) {
        handle = start(allowedHosts);
        handle.catch(() => running.delete(key));
        running.set(key, handle);
      }
      return handle;
    },
    async close() {
      const handles = await Promise.allSettled(running.values());
      running.clear();
      for (const handle of handles) if (handle.status === "fulfilled") await handle.value.proxy.close();
    },
  };
}
