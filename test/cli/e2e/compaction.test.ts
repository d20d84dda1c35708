import { afterEach, describe, expect, it } from "vitest";
import {
  type ModelServer,
  type RecordedRequest,
  type ServerReply,
  startModelServer,
} from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MODEL = "anthropic:claude-sonnet-5-5";
const WINDOW = 24_000;
const FACTS = 12;
const value = (n: number) => ((n * 7) % 11) + 1;
const SUM = [...Array(FACTS).keys()].reduce((sum, i) => sum + value(i + 1), 0);

/** What the real API would report: about four characters of the request a token. */
const reported = (request: RecordedRequest) => ({ input: Math.ceil(request.rawBody.length / 4), output: 30 });
/** The summary call ends with the compaction instruction. */
const isSummaryCall = (request: RecordedRequest) =>
  JSON.stringify((request.body.messages as unknown[]).at(-1)).includes("it is being compacted");
const facts = (request: RecordedRequest) =>
  new Map(
    [...request.rawBody.matchAll(/fact (\d+)(?:: the number is| =) (\d+)/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]),
  );

/**
 * A model at the wire that reads facts/1.txt … facts/12.txt (about 2,000 tokens each, so a 24k window
 * overflows), then answers their sum from what its request shows; summary calls list the facts seen.
 */
function script(request: RecordedRequest): ServerReply {
  const known = facts(request);
  if (isSummaryCall(request)) {
    const lines = [...known].sort(([a], [b]) => a - b).map(([n, v]) => `fact ${n} = ${v}`);
    return { text: `Reading facts to add them up.\n${lines.join("\n")}`, usage: reported(request) };
  }
  const next = [...Array(FACTS).keys()].map((i) => i + 1).find((n) => !known.has(n));
  if (next !== undefined)
    return { toolCalls: [{ name: "read", args: { path: `facts/${next}.txt` } }], usage: reported(request) };
  const sum = [...known.values()].reduce((a, b) => a + b, 0);
  return { text: `The sum is ${sum}.`, usage: reported(request) };
}

async function workspace(): Promise<TestWorkspace> {
  const files: Record<string, string> = {
    "agentry.json": JSON.stringify({ providers: { contextWindows: { [MODEL]: WINDOW } } }),
  };
  for (let n = 1; n <= FACTS; n++)
    files[`facts/${n}.txt`] = `fact ${n}: the number is ${value(n)}\n${"filler line\n".repeat(650)}`;
  return makeWorkspace(files);
}

describe("automatic compaction through the CLI", () => {
  it("compacts at the wire, answers right, records it, and resumes from the compacted form", async () => {
    const ws = await workspace();
    server = await startModelServer(script);
    const env = { ...ws.env, ...providerEnv(server, "anthropic") };
    const run = await runCli(
      ["run", "--output-format", "stream-json", `Add up the numbers in facts/1..${FACTS}.txt`],
      {
        cwd: ws.dir,
        env,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    const result = lines.at(-1);
    expect(result).toMatchObject({ type: "result", outcome: "completed", result: `The sum is ${SUM}.` });

    const compacted = lines.filter((line) => line.type === "compacted");
    expect(compacted.length).toBeGreaterThanOrEqual(1);
    expect(compacted[0]).toMatchObject({ v: 1, agentPath: ["main"], trigger: "auto", contextWindow: WINDOW });
    expect(lines.some((line) => line.type === "compaction_start")).toBe(true);

    // The request after each summary call is small: the summary and the kept turn, not the facts read before.
    const requests = server.requests;
    const summaryCalls = requests.flatMap((request, index) => (isSummaryCall(request) ? [index] : []));
    expect(summaryCalls).toHaveLength(compacted.length);
    for (const index of summaryCalls) {
      const before = requests[index - 1] as RecordedRequest;
      const after = requests[index + 1] as RecordedRequest;
      expect(after.rawBody.length / 4).toBeLessThan(WINDOW * 0.5);
      expect(after.rawBody.length).toBeLessThan(before.rawBody.length * 0.6);
      expect(after.rawBody).toContain("<summary>");
      // The first fact's file output is gone; its number is still there, in the summary.
      expect(after.rawBody).not.toContain("fact 1: the number is");
      expect(after.rawBody).toContain(`fact 1 = ${value(1)}`);
      // The files the replaced turns read are listed beside the summary.
      expect(after.rawBody).toContain("- facts/1.txt (read)");
    }
    // No call the agent made went past the window.
    for (const request of requests) expect(reported(request).input).toBeLessThan(WINDOW);

    // The transcript keeps every message and records the compaction; sessions show draws it.
    const sessionId = result.sessionId as string;
    const transcript = (await ws.transcripts())[`${sessionId}.jsonl`]?.parsed as Array<{
      type: string;
      message?: { role: string };
    }>;
    expect(transcript.filter((entry) => entry.type === "compaction")).toHaveLength(compacted.length);
    const toolResults = transcript.filter((entry) => entry.message?.role === "tool_result");
    expect(toolResults).toHaveLength(FACTS);
    const show = await runCli(["sessions", "show", sessionId], { cwd: ws.dir, env });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("⟳ compacted (auto)");
    expect(show.stdout).toContain(`fact 1 = ${value(1)}`);

    // --resume continues from the compacted form.
    const requestsBefore = requests.length;
    const resumed = await runCli(["run", "--resume", sessionId, "--output-format", "json", "And again?"], {
      cwd: ws.dir,
      env,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    const first = requests[requestsBefore] as RecordedRequest;
    expect(first.rawBody).toContain("<summary>");
    expect(first.rawBody).not.toContain("fact 1: the number is");
    expect(first.rawBody).toContain("And again?");
    expect(JSON.parse(resumed.stdout)).toMatchObject({ result: `The sum is ${SUM}.` });
  });

  it("does not compact when compaction.enabled is false", async () => {
    const ws = await workspace();
    await ws.write(
      "agentry.json",
      JSON.stringify({ providers: { contextWindows: { [MODEL]: WINDOW } }, compaction: { enabled: false } }),
    );
    server = await startModelServer(script);
    const run = await runCli(["run", "--output-format", "stream-json", "Add them up"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('"type":"compaction');
    expect(server.requests.some(isSummaryCall)).toBe(false);
  });
});
