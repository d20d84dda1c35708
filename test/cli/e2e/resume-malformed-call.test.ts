import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, type ServerReply, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { type Protocol, providerEnv } from "../support/provider-env.ts";

// A tool call whose arguments are not JSON (the model's mistake, or cut by the output-token limit) is
// stored with its raw text and no parsed arguments. Reading it back must keep the whole call and its
// result, or every later resume sends a result without its call and the provider answers 400.

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  server = undefined;
  ws = undefined;
});

const BAD_CALLS: Array<[string, ServerReply]> = [
  ["bad JSON", { toolCalls: [{ id: "call_bad", name: "read", rawArgs: '{"path": "a.txt",,}' }] }],
  [
    "arguments cut by the output limit",
    { toolCalls: [{ id: "call_bad", name: "read", rawArgs: '{"path": "a.t' }], stopReason: "length" },
  ],
];

describe.each<Protocol>(["anthropic", "openai"])("%s", (protocol) => {
  it.each(BAD_CALLS)("a session with a malformed call (%s) resumes, call and result kept", async (_, bad) => {
    ws = await makeWorkspace({ "a.txt": "alpha" });
    server = await startModelServer([bad, { text: "I sent bad arguments." }, { text: "resumed fine" }]);
    const env = { ...ws.env, ...providerEnv(server, protocol) };
    const first = await runCli(["run", "--output-format", "json", "read a.txt"], { cwd: ws.dir, env });
    expect(first.code).toBe(0);
    const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };

    const show = await runCli(["sessions", "show", sessionId], { cwd: ws.dir, env });
    expect(show.code).toBe(0);
    expect(show.stdout).not.toContain("warning");
    expect(show.stdout).toContain("read");

    const resumed = await runCli(["run", "--resume", sessionId, "and now?"], { cwd: ws.dir, env });
    expect(server.requests.map((request) => request.status)).not.toContain(400);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("resumed fine");
    // The provider saw the call (with its id) and then its error result, as in the first run.
    const sent = JSON.stringify(server.requests[2]?.body.messages ?? server.requests[2]?.body.input ?? null);
    expect(sent).toContain("call_bad");
    expect(sent).toContain("not valid JSON");
    expect(sent.indexOf("call_bad")).toBeLessThan(sent.indexOf("not valid JSON"));
    expect(sent).not.toContain("call is missing from the transcript");
  });
});
