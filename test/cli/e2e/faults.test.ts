import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { bodyText, FAST_RETRY_CONFIG, providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

async function setup(script: Parameters<typeof startModelServer>[0], config = FAST_RETRY_CONFIG) {
  ws = await makeWorkspace({ "agentry.json": config });
  server = await startModelServer(script);
  const run = (...args: string[]) =>
    runCli(["run", "--permission-mode", "bypass", ...args], {
      cwd: (ws as TestWorkspace).dir,
      env: { ...(ws as TestWorkspace).env, ...providerEnv(server as ModelServer, "anthropic") },
    });
  return { ws, server, run };
}

/** Every transcript line must be complete JSON: `transcripts()` parses each one. */
async function onlyTranscript(workspace: TestWorkspace) {
  const files = Object.values(await workspace.transcripts());
  expect(files).toHaveLength(1);
  return files[0] as { lines: string[]; parsed: Array<Record<string, unknown>> };
}

describe("model faults at the CLI", () => {
  it("retries a 500 and succeeds", async () => {
    const { run, server } = await setup([{ status: 500 }, { text: "recovered" }]);
    const result = await run("hi");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("recovered\n");
    expect(result.stderr).toContain("retrying");
    expect(server.requests).toHaveLength(2);
  });

  it("waits for retry-after on a 429, then succeeds", async () => {
    const { run, server } = await setup([
      { status: 429, headers: { "retry-after": "1" } },
      { text: "after the wait" },
    ]);
    const result = await run("hi");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("after the wait\n");
    const [first, second] = server.requests;
    expect((second?.startedAt ?? 0) - (first?.startedAt ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it("fails clearly with exit code 1 when the provider always answers 500, keeping the transcript intact", async () => {
    const config = JSON.stringify({ providers: { retry: { maxRetries: 2, baseDelayMs: 10 } } });
    const { run, server, ws } = await setup({ status: 500, errorMessage: "the backend is down" }, config);
    const result = await run("hi");
    expect(result.code).toBe(1);
    expect(server.requests).toHaveLength(3);
    expect(result.stderr).toMatch(/error: .*(500|backend is down)/);
    const transcript = await onlyTranscript(ws);
    expect(transcript.parsed[0]).toMatchObject({ type: "header" });
    expect(transcript.parsed.some((line) => line.type === "error")).toBe(true);
    expect(transcript.parsed.at(-1)).toMatchObject({ type: "outcome", outcome: { status: "error" } });
  });

  it("reports a stream cut mid-message and leaves no half-written transcript line", async () => {
    const config = JSON.stringify({ providers: { retry: { maxRetries: 0 } } });
    const { run, ws } = await setup(
      [{ text: "This answer will be cut off in the middle", cutAfterEvents: 4 }],
      config,
    );
    const result = await run("hi");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error: /);
    const transcript = await onlyTranscript(ws);
    // The half message is not stored: only the prompt, the error and the outcome.
    const messages = transcript.parsed.filter((line) => line.type === "message");
    expect(messages.map((m) => (m.message as { role: string }).role)).toEqual(["user"]);
    expect(transcript.parsed.at(-1)).toMatchObject({ type: "outcome", outcome: { status: "error" } });
  });

  it("turns malformed tool JSON and an unknown tool into error results and continues", async () => {
    const { run, server } = await setup([
      {
        toolCalls: [
          { name: "read", rawArgs: '{"path": "a.txt"' },
          { name: "teleport", args: { to: "mars" } },
        ],
      },
      { text: "I corrected myself." },
    ]);
    const result = await run("hi");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("I corrected myself.\n");
    const second = bodyText(server, 1);
    expect(second).toContain('"is_error":true');
    expect(second).toContain("teleport");
    expect(result.stderr).toMatch(/✗ error/);
  });
});
