import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { encryptedReasoning } from "../../support/openai-responses-sse.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

type Item = { type?: string; id?: string; encrypted_content?: string; summary?: unknown[] };
const reasoningItems = (request: { body: Record<string, unknown> } | undefined) =>
  ((request?.body.input as Item[] | undefined) ?? []).filter((item) => item.type === "reasoning");

describe("agentry run with an openai: model", () => {
  it("speaks the Responses API; reasoning goes back every turn, also after --resume", async () => {
    ws = await makeWorkspace({ "a.txt": "hello from a\n" });
    server = await startModelServer([
      {
        reasoning: "Read a.txt first.",
        toolCalls: [{ id: "call_r", name: "read", args: { path: "a.txt" } }],
      },
      { reasoning: "", text: "a.txt says hello." },
      { text: "Still hello." },
    ]);
    const env = { ...ws.env, ...providerEnv(server, "openai") };
    const first = await runCli(["run", "--model", "openai:gpt-5", "What does a.txt say?"], {
      cwd: ws.dir,
      env,
    });
    expect(first.stderr).not.toContain("error");
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("a.txt says hello.\n");
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/responses", "/v1/responses"]);
    expect(server.requests[0]?.body).toMatchObject({
      model: "gpt-5",
      store: false,
      include: ["reasoning.encrypted_content"],
      reasoning: { summary: "auto" },
    });
    expect(reasoningItems(server.requests[1])).toEqual([
      {
        type: "reasoning",
        id: "rs_test_0",
        encrypted_content: encryptedReasoning("rs_test_0"),
        summary: [{ type: "summary_text", text: "Read a.txt first." }],
      },
    ]);

    // The transcript keeps the items, so a resumed run sends them back too (the server verifies them).
    const [sessionFile] = Object.keys(await ws.transcripts());
    const sessionId = sessionFile!.replace(/\.jsonl$/, "");
    const resumed = await runCli(["run", "--resume", sessionId, "--model", "openai:gpt-5", "And now?"], {
      cwd: ws.dir,
      env,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe("Still hello.\n");
    expect(server.requests).toHaveLength(3);
    expect(reasoningItems(server.requests[2]).map((item) => [item.id, item.encrypted_content])).toEqual([
      ["rs_test_0", encryptedReasoning("rs_test_0")],
      ["rs_test_1", encryptedReasoning("rs_test_1")],
    ]);
  });

  it('uses Chat Completions when providers.openai.api is "chat"', async () => {
    ws = await makeWorkspace();
    await ws.userConfig({ providers: { openai: { api: "chat" } } });
    server = await startModelServer([{ reasoning: "ignored by Chat Completions", text: "chat here" }]);
    const result = await runCli(["run", "--model", "openai:gpt-5", "hi"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "openai") },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("chat here\n");
    expect(server.requests.map((request) => [request.protocol, request.path])).toEqual([
      ["openai-chat", "/v1/chat/completions"],
    ]);
  });
});
