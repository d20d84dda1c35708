import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

type Body = { messages: Array<{ role: string; content: unknown }> };
const messagesOf = (s: ModelServer, index: number) => (s.requests[index]?.body as Body | undefined)?.messages;
const texts = (s: ModelServer, index: number) =>
  (messagesOf(s, index) ?? []).map((message) => `${message.role}: ${JSON.stringify(message.content)}`);

async function chat(input: string, script: Parameters<typeof startModelServer>[0], args: string[] = []) {
  ws = await makeWorkspace();
  server = await startModelServer(script);
  return runCli(["chat", ...args], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(server, "anthropic") },
    input,
  });
}

describe("agentry chat with piped input", () => {
  it("runs each line as a turn of one session and exits 0 at the end of input", async () => {
    const result = await chat("What is 2+2?\nAnd times 3?\n", [{ text: "4." }, { text: "12." }]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("4.\n12.\n");
    expect(result.stderr).toContain("› What is 2+2?");
    expect(result.stderr).toMatch(/1 turn · \d+ tokens in \/ \d+ out/);

    const s = server as ModelServer;
    expect(s.requests).toHaveLength(2);
    expect(texts(s, 0)).toHaveLength(1);
    // The second turn sees the first exchange.
    const second = texts(s, 1);
    expect(second).toHaveLength(3);
    expect(second[0]).toMatch(/^user: .*What is 2\+2\?/);
    expect(second[1]).toMatch(/^assistant: .*4\./);
    expect(second[2]).toMatch(/^user: .*And times 3\?/);

    const transcripts = await (ws as TestWorkspace).transcripts();
    const names = Object.keys(transcripts);
    expect(names).toHaveLength(1);
    const id = names[0]?.replace(/\.jsonl$/, "");
    expect(result.stderr).toContain(`session ${id}`);
  });

  it("prints the session with /session and starts a fresh one with /new", async () => {
    const result = await chat("hello\n/session\n/new\n/session\nagain\n", [{ text: "one" }, { text: "two" }]);
    expect(result.code, result.stderr).toBe(0);
    const ids = [...result.stderr.matchAll(/^Session (\S+) \((.+)\)\./gm)].map((match) => [
      match[1],
      match[2],
    ]);
    expect(ids).toHaveLength(2);
    const [first, fresh] = ids;
    expect(first?.[1]).toBe("2 messages");
    expect(fresh?.[1]).toBe("nothing stored yet");
    expect(fresh?.[0]).not.toBe(first?.[0]);
    expect(result.stderr).toContain(`agentry chat --resume ${first?.[0]}`);
    expect(result.stderr).toContain(`New session ${fresh?.[0]}.`);

    // The turn after /new starts from nothing, in its own transcript.
    expect(texts(server as ModelServer, 1)).toHaveLength(1);
    expect(Object.keys(await (ws as TestWorkspace).transcripts()).sort()).toEqual(
      [`${first?.[0]}.jsonl`, `${fresh?.[0]}.jsonl`].sort(),
    );
  });

  it("reports an unknown slash command with the list of commands, and sends paths as prompts", async () => {
    const result = await chat("/frobnicate\n/sesion\n\n/tmp/notes.txt: what is in it?\n", [{ text: "ok" }]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("Unknown command /frobnicate.");
    expect(result.stderr).toContain("/help /new /session /model /compact /agents /tasks /mcp /exit /quit");
    expect(result.stderr).toContain("Did you mean /session?");
    const s = server as ModelServer;
    expect(s.requests).toHaveLength(1);
    expect(texts(s, 0)[0]).toContain("/tmp/notes.txt: what is in it?");
  });

  it("stops reading at /exit and stores nothing when no turn ran", async () => {
    const result = await chat("/help\n/exit\nnever sent\n", [{ text: "unused" }]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("/model [id]");
    expect(server?.requests).toHaveLength(0);
    expect(await (ws as TestWorkspace).transcripts()).toEqual({});
  });

  it("continues a stored session with --resume", async () => {
    const first = await chat("remember 7\n", [{ text: "Noted." }, { text: "It was 7." }]);
    expect(first.code, first.stderr).toBe(0);
    const [name] = Object.keys(await (ws as TestWorkspace).transcripts());
    const id = name?.replace(/\.jsonl$/, "") ?? "";
    const again = await runCli(["chat", "--resume", id], {
      cwd: (ws as TestWorkspace).dir,
      env: { ...(ws as TestWorkspace).env, ...providerEnv(server as ModelServer, "anthropic") },
      input: "what was it?\n",
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`session ${id} (resumed, 2 messages)`);
    expect(texts(server as ModelServer, 1)).toHaveLength(3);
  });

  it("rejects a bad option before starting, with exit code 2", async () => {
    const result = await chat("hi\n", [{ text: "unused" }], ["--resume", "no-such-session"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--resume");
    expect(server?.requests).toHaveLength(0);
  });
});
