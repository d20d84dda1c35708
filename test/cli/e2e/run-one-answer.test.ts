import { spawn } from "node:child_process";
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliBin } from "../../support/cli-bin.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { finished, makeWorkspace } from "../support/cli-process.ts";
import { bodyText, providerEnv } from "../support/provider-env.ts";

/**
 * Issue 29: `agentry run … > answer.md` with a background child printed the parent's first answer and,
 * once the child's notification came, a second one glued to it. Piped or redirected, stdout now gets the
 * run's final answer alone; on a terminal the text still streams (docs/cli.md).
 */

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The child's conversation starts with its prompt; the parent's with the user's. */
const isChild = (request: RecordedRequest) =>
  JSON.stringify((request.body.messages as unknown[] | undefined)?.[0] ?? "").includes("CHILD:");

const FIRST_ANSWER = "I started a background count of the TODOs; I will report when it is done.";
const FINAL_ANSWER = "The background count is done: there are 3 TODOs.";

describe("agentry run with a background child, stdout in a file", () => {
  it("writes one answer, the final one, though the parent answered twice", async () => {
    const ws = await makeWorkspace({ "a.txt": "TODO one\nTODO two\nTODO three\n" });
    let firstAnswerSent!: () => void;
    const firstAnswer = new Promise<void>((resolve) => {
      firstAnswerSent = resolve;
    });
    let firstAnswerRequest: RecordedRequest | undefined;
    const rootReplies = [
      {
        toolCalls: [
          {
            name: "task",
            args: {
              description: "count the TODOs",
              prompt: "CHILD: count the TODOs in a.txt",
              subagent_type: "general-purpose",
              run_in_background: true,
            },
          },
        ],
      },
      { text: FIRST_ANSWER },
      { text: FINAL_ANSWER },
    ];
    let rootCalls = 0;
    server = await startModelServer(
      async (request) => {
        // The child reports only once the parent's first answer has been sent in full.
        if (isChild(request)) return firstAnswer.then(() => ({ text: "3 TODOs" }));
        const call = rootCalls++;
        if (call === 1) firstAnswerRequest = request;
        return rootReplies[call] ?? { text: "unexpected extra call" };
      },
      {
        onRecord: (request) => {
          if (request === firstAnswerRequest && request.finishedAt !== undefined) firstAnswerSent();
        },
      },
    );

    const out = join(ws.dir, "..", "out.txt");
    const file = await open(out, "w");
    const child = spawn(
      process.execPath,
      [cliBin(), "run", "--permission-mode", "bypass", "Count the TODOs"],
      {
        cwd: ws.dir,
        env: { ...ws.env, ...providerEnv(server, "anthropic") },
        stdio: ["ignore", file.fd, "pipe"],
      },
    );
    const result = await finished(child);
    await file.close();

    expect(result.code, result.stderr).toBe(0);
    // The parent did answer twice: the second turn came with the child's notification.
    expect(rootCalls).toBe(3);
    const finalTurn = server.requests.findIndex(
      (request, index) =>
        index > 0 &&
        !isChild(request) &&
        bodyText(server as ModelServer, index).includes("<task-notification>"),
    );
    expect(finalTurn, "no parent turn carried the child's notification").toBeGreaterThan(-1);
    expect(await readFile(out, "utf8")).toBe(`${FINAL_ANSWER}\n`);
  });
});
