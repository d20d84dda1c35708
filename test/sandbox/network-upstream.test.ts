// openUpstream's connect timeout, on a fake clock and real loopback sockets: a connection that does not
// open in time is given up with a reason, and one that opened is never cut by that timer later.
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseAllowedHosts } from "../../src/sandbox/network-hosts.ts";
import { openUpstream } from "../../src/sandbox/network-upstream.ts";
import { readUntil, startEchoServer } from "./network-support.ts";

const echoes: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(echoes.splice(0).map((echo) => echo.close()));
});

async function echoServer(): Promise<number> {
  const echo = await startEchoServer();
  echoes.push(echo);
  return echo.port;
}

describe("openUpstream's connect timeout", () => {
  it("gives up on a connection that has not opened after 10 s, saying so", async () => {
    const port = await echoServer();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    // An IP literal is connected to at once, in this same turn of the event loop; the connection can
    // only open in a later one, so the 10 s pass before it does.
    const pending = openUpstream(
      parseAllowedHosts(["127.0.0.1"]),
      "127.0.0.1",
      port,
      new AbortController().signal,
    );
    vi.advanceTimersByTime(10_000);
    expect(await pending).toEqual({
      ok: false,
      status: 502,
      message: `agentry sandbox proxy: cannot connect to 127.0.0.1:${port} (127.0.0.1: no answer in 10 s)`,
    });
  });

  it("leaves an open connection alone once it has opened, however long it lasts", async () => {
    const port = await echoServer();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const upstream = await openUpstream(
      parseAllowedHosts(["127.0.0.1"]),
      "127.0.0.1",
      port,
      new AbortController().signal,
    );
    if (!upstream.ok) throw new Error(upstream.message);
    const errors: Error[] = [];
    upstream.socket.on("error", (error) => errors.push(error));
    vi.advanceTimersByTime(60_000);
    upstream.socket.write("still here\n");
    expect(await readUntil(upstream.socket, "still here\n")).toBe("still here\n");
    expect(errors).toEqual([]);
    upstream.socket.destroy();
  });
});
