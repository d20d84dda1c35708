import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

const isSummaryCall = (request: RecordedRequest) =>
  JSON.stringify((request.body.messages as unknown[]).at(-1)).includes("it is being compacted");

async function chat(input: string, script: Parameters<typeof startModelServer>[0]) {
  ws = await makeWorkspace();
  server = await startModelServer(script);
  return runCli(["chat"], { cwd: ws.dir, env: { ...ws.env, ...providerEnv(server, "anthropic") }, input });
}

describe("/compact in agentry chat", () => {
  it("replaces the older turns by a summary with the focus asked for; the next turn continues from it", async () => {
    const result = await chat(
      "The code word is tangerine.\nAnd the colour is teal.\n/compact keep the code word\nWhat was the code word?\n",
      [
        { text: "Noted." },
        { text: "Noted too." },
        { text: "The user set the code word tangerine and the colour teal." },
        { text: "Tangerine." },
      ],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Compacting the conversation \([\d.k]+ tokens, \d+% of 200k\)…/);
    expect(result.stderr).toMatch(
      /Compacted: [\d.k]+ → [\d.k]+ tokens: 3 messages summarized by claude-sonnet-5-5/,
    );
    const requests = (server as ModelServer).requests;
    const summary = requests[2] as RecordedRequest;
    expect(isSummaryCall(summary)).toBe(true);
    expect(summary.rawBody).toContain("keep the code word");
    // The turn after it: the summary and the latest reply kept, then the new prompt.
    const next = requests[3] as RecordedRequest;
    const messages = next.body.messages as Array<{ role: string; content: unknown }>;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(messages[0])).toContain("The user set the code word tangerine");
    expect(next.rawBody).not.toContain("The code word is tangerine.");
    expect(result.stdout).toContain("Tangerine.");

    const transcripts = await (ws as TestWorkspace).transcripts();
    const [transcript] = Object.values(transcripts);
    const compaction = transcript?.parsed.find((line) => (line as { type: string }).type === "compaction");
    expect(compaction).toMatchObject({ trigger: "manual", replaced: 3, kept: 1 });
    // sessions show counts the summary call, which belongs to no run, in the session's usage.
    const id = Object.keys(transcripts)[0]?.replace(/\.jsonl$/, "");
    const show = await runCli(["sessions", "show", "--json", id as string], {
      cwd: (ws as TestWorkspace).dir,
      env: (ws as TestWorkspace).env,
    });
    expect(JSON.parse(show.stdout).usage.session).toMatchObject({ input: 40, output: 40 });
  });

  it("says when there is nothing to compact, and when the summary call fails leaves all as it was", async () => {
    const result = await chat("/compact\nhello\n/compact\nmore\n/compact\nagain\n", [
      { text: "Hi." },
      { text: "More." },
      { status: 400, errorMessage: "no summaries today" },
      { text: "Again." },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("Nothing to compact yet: this session has no messages.");
    // One exchange: nothing is older than the latest turn, so no summary call is made.
    expect(result.stderr).toMatch(/Could not compact the conversation: nothing to compact yet/);
    expect(result.stderr).toMatch(
      /Could not compact the conversation: the summary call failed: .*no summaries today.*; it goes on as it was/,
    );
    const requests = (server as ModelServer).requests;
    expect(requests).toHaveLength(4);
    expect(isSummaryCall(requests[2] as RecordedRequest)).toBe(true);
    // The turn after the failure sees the whole conversation.
    const last = requests[3] as RecordedRequest;
    expect((last.body.messages as unknown[]).length).toBe(5);
    expect(last.rawBody).toContain("hello");
    const [transcript] = Object.values(await (ws as TestWorkspace).transcripts());
    expect(transcript?.parsed.some((line) => (line as { type: string }).type === "compaction")).toBe(false);
  });
});
