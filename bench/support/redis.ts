import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { Redis } from "ioredis";

/** A `redis-server` of the bench's own on a free loopback port, without persistence. */
export async function startRedis(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: "ignore" },
  );
  child.once("error", () => {});
  const url = `redis://127.0.0.1:${port}/0`;
  const deadline = Date.now() + 5_000;
  while (true) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on("error", () => {});
    const up = await client.connect().then(
      () => true,
      () => false,
    );
    client.disconnect();
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error("redis-server did not start (Debian: apt-get install redis-server)");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
