import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { bodyText, providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

async function setup(script: Parameters<typeof startModelServer>[0]) {
  ws = await makeWorkspace();
  server = await startModelServer(script);
  const env = { ...ws.env, ...providerEnv(server, "anthropic") };
  const cli = (args: string[], input?: string) =>
    runCli(args, { cwd: (ws as TestWorkspace).dir, env, ...(input === undefined ? {} : { input }) });
  return { cli, server, ws };
}

describe("sessions, resume and stdin", () => {
  it("reads the prompt from stdin when it is -", async () => {
    const { cli, server } = await setup([{ text: "got it" }]);
    const result = await cli(["run", "-"], "a prompt piped on stdin\nwith two lines");
    expect(result.code).toBe(0);
    expect(bodyText(server, 0)).toContain("a prompt piped on stdin\\nwith two lines");
  });

  it("refuses an empty stdin prompt", async () => {
    const { cli, server } = await setup([{ text: "unused" }]);
    const result = await cli(["run", "-"], "  \n");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("empty");
    expect(server.requests).toHaveLength(0);
  });

  it("resumes a session: the model sees the earlier conversation and the transcript grows", async () => {
    const { cli, server, ws } = await setup([
      { text: "The secret word is marmalade." },
      { text: "It was marmalade." },
    ]);
    const first = await cli(["run", "--output-format", "json", "Remember a secret word"]);
    const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
    const second = await cli(["run", "--resume", sessionId, "--output-format", "json", "What was the word?"]);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ sessionId, result: "It was marmalade." });
    const resumedRequest = bodyText(server, 1);
    expect(resumedRequest).toContain("Remember a secret word");
    expect(resumedRequest).toContain("The secret word is marmalade.");
    expect(resumedRequest).toContain("What was the word?");
    const transcripts = await ws.transcripts();
    expect(Object.keys(transcripts)).toEqual([`${sessionId}.jsonl`]);
    const outcomes = transcripts[`${sessionId}.jsonl`]?.parsed.filter(
      (line) => (line as { type: string }).type === "outcome",
    );
    expect(outcomes).toHaveLength(2);
  });

  it("rejects an unknown session id for --resume without calling the model", async () => {
    const { cli, server } = await setup([{ text: "unused" }]);
    const result = await cli(["run", "--resume", "20200101-000000-nosuch", "hi"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Session "20200101-000000-nosuch" not found');
    expect(result.stderr).toContain("agentry sessions list");
    expect(server.requests).toHaveLength(0);
  });

  it("lists sessions as a table and as JSON, and shows one readably or raw", async () => {
    const { cli } = await setup([
      { text: "Looking.", toolCalls: [{ name: "list", args: {} }] },
      { text: "The workspace is empty." },
    ]);
    const run = await cli(["run", "--output-format", "json", "What is in this workspace?"]);
    const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };

    const table = await cli(["sessions", "list"]);
    expect(table.code).toBe(0);
    const [header, row] = table.stdout.trimEnd().split("\n");
    expect(header).toMatch(/^ID\s+AGE\s+AGENT\s+MODEL\s+MESSAGES\s+OUTCOME\s+TITLE$/);
    expect(row).toContain(sessionId);
    expect(row).toMatch(/main\s+anthropic:\S+\s+4\s+completed\s+What is in this workspace\?/);

    const json = await cli(["sessions", "list", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({
        id: sessionId,
        messageCount: 4,
        lastOutcome: "completed",
        agentName: "main",
      }),
    ]);

    const show = await cli(["sessions", "show", sessionId]);
    expect(show.code).toBe(0);
    for (const text of [
      `session ${sessionId}`,
      "› user",
      "What is in this workspace?",
      "→ list",
      "⎿ list",
      "The workspace is empty.",
      "■ completed",
    ]) {
      expect(show.stdout).toContain(text);
    }

    const raw = await cli(["sessions", "show", sessionId, "--json"]);
    const parsed = JSON.parse(raw.stdout) as {
      header: { sessionId: string };
      entries: Array<{ type: string }>;
    };
    expect(parsed.header.sessionId).toBe(sessionId);
    expect(parsed.entries.map((entry) => entry.type)).toEqual([
      "message",
      "message",
      "message",
      "message",
      "outcome",
    ]);
  });

  it("explains an empty workspace and an unknown id", async () => {
    const { cli } = await setup([]);
    const empty = await cli(["sessions", "list"]);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain("No sessions");
    expect((await cli(["sessions", "list", "--json"])).stdout.trim()).toBe("[]");
    const missing = await cli(["sessions", "show", "20200101-000000-nosuch"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("agentry sessions list");
    const bad = await cli(["sessions", "show", "../etc"]);
    expect(bad.code).toBe(2);
  });

  it("lists the user's sessions; --all adds the subagents'", async () => {
    const { cli } = await setup([
      { toolCalls: [{ name: "task", args: { description: "say hi", prompt: "Say hi." } }] },
      { text: "hi" },
      { text: "The child said hi." },
    ]);
    const run = await cli(["run", "--output-format", "json", "Ask a child to say hi"]);
    const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };

    const mine = JSON.parse((await cli(["sessions", "list", "--json"])).stdout) as { id: string }[];
    expect(mine.map((session) => session.id)).toEqual([sessionId]);
    const table = await cli(["sessions", "list"]);
    expect(table.stdout).not.toContain("sub-");
    expect(table.stderr).toContain("1 subagent session: agentry sessions list --all");

    const all = JSON.parse((await cli(["sessions", "list", "--all", "--json"])).stdout) as {
      id: string;
      parentSessionId?: string;
    }[];
    expect(all).toHaveLength(2);
    expect(all.find((session) => session.id !== sessionId)).toMatchObject({
      id: expect.stringMatching(/^sub-/),
      parentSessionId: sessionId,
    });
  });
});
