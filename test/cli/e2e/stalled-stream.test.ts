import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { scaled } from "../../support/time-scale.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { type Protocol, providerEnv } from "../support/provider-env.ts";

// The root's own model call has the idle watchdog too: a provider that stops sending fails the run in
// about `providers.retry.idleTimeoutMs` per attempt (retried), not after the HTTP client's minutes.
// And a failure after part of the reply says it was not retried, instead of "agentry retries".

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  server = undefined;
  ws = undefined;
});

const config = (idleTimeoutMs: number) =>
  JSON.stringify({ providers: { retry: { maxRetries: 1, baseDelayMs: 10, maxDelayMs: 20, idleTimeoutMs } } });

describe.each<Protocol>(["anthropic", "openai"])("%s", (protocol) => {
  it("a top-level stream that stalls is cut off, retried, and the run fails clearly", async () => {
    ws = await makeWorkspace({ "agentry.json": config(500) });
    server = await startModelServer({ text: "never finished", hangAfterEvents: 1 });
    const env = { ...ws.env, ...providerEnv(server, protocol) };
    const result = await Promise.race([
      runCli(["run", "hello"], { cwd: ws.dir, env }),
      // A hang guard below the test's own bound, so a hang fails with this message.
      new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), scaled(15_000)).unref()),
    ]);
    expect(result).not.toBe("hung");
    if (result === "hung") return;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/sent nothing for 0\.5s: the stream stalled/);
    expect(result.stderr).toContain("gave up after 1 retry");
    expect(server.requests).toHaveLength(2);
  });

  it("a stream that fails after part of the reply says it was not retried", async () => {
    ws = await makeWorkspace({ "agentry.json": config(60_000) });
    server = await startModelServer({ text: "one two three four five six", streamErrorAfterEvents: 6 });
    const env = { ...ws.env, ...providerEnv(server, protocol) };
    const result = await runCli(["run", "hello"], { cwd: ws.dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "the reply broke off after part of it had arrived, so it was not retried",
    );
    expect(result.stderr).not.toContain("agentry retries");
    expect(server.requests).toHaveLength(1);
  });
});
