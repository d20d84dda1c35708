import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceTaskStore } from "../../../src/tasks/workspace/workspace-task-store.ts";
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

const isChild = (request: RecordedRequest) =>
  JSON.stringify((request.body.messages as unknown[] | undefined)?.[0] ?? "").includes("CHILD:");

describe("agentry chat with subagents", () => {
  it("keeps one runtime for the session: /tasks, /agents and /model act on it", async () => {
    ws = await makeWorkspace();
    const rootReplies = [
      {
        toolCalls: [
          {
            name: "task",
            args: {
              description: "find the answer",
              prompt: "CHILD: report the answer",
              subagent_type: "explore",
              run_in_background: true,
            },
          },
        ],
      },
      { text: "Started it." },
      { text: "The child says 42." },
      { text: "openai here" },
    ];
    let rootCalls = 0;
    server = await startModelServer((request) =>
      isChild(request) ? { text: "42", delayMs: 300 } : (rootReplies[rootCalls++] ?? { text: "extra" }),
    );
    const result = await runCli(["chat"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic"), ...providerEnv(server, "openai") },
      input: "delegate please\n/tasks\n/agents\n/model openai:gpt-test\nwhich model?\n",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("The child says 42.");
    expect(result.stdout).toContain("openai here");
    // The turn's summary counts the whole tree.
    expect(result.stderr).toMatch(/3 turns · .* · 2 agent runs/);

    expect(result.stderr).toMatch(/sub-\S+ {2}COMPLETED {2}explore {2}find the answer/);
    expect(result.stderr).toMatch(/^ {2}explore {2,}/m);
    expect(result.stderr).toMatch(/^ {2}general-purpose {2,}/m);
    expect(result.stderr).toContain("Model: openai:gpt-test from the next turn on.");

    const last = server.requests.at(-1);
    expect(last?.protocol).toBe("openai");
    expect(JSON.stringify(last?.body)).toContain("delegate please");

    // The session ended with no task left running.
    const records = await new WorkspaceTaskStore({ workspace: ws.dir }).list();
    expect(records.map((record) => [record.status, record.deliveredAt !== undefined])).toEqual([
      ["COMPLETED", true],
    ]);
  });
});
