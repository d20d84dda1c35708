import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { PermissionDeniedError } from "../../src/permissions/types.ts";
import { LockTimeoutError } from "../../src/tasks/task-errors.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { defineTool, ToolError } from "../../src/tools/tool.ts";
import { eventLog, sessionWithPrompt, tempWorkspace, testConfig, toolResultsIn } from "./support/harness.ts";

const thrower = defineTool({
  name: "fail",
  description: "Throws what it is told to.",
  schema: z.object({ kind: z.enum(["plain", "tool", "denied", "string", "lock"]) }),
  async execute({ kind }) {
    if (kind === "tool") throw new ToolError("file not found: a.txt");
    if (kind === "lock") throw new LockTimeoutError("/w/.agentry/x.lock", "host:42", 30_000);
    if (kind === "denied") throw new PermissionDeniedError("Editing .env is denied by rule edit .env.");
    if (kind === "string") throw "bare string";
    throw new TypeError("cannot read properties of undefined");
  },
});

async function contentFor(kind: string) {
  const workspace = await tempWorkspace();
  const model = scriptedModel([{ toolCalls: [{ id: "t", name: "fail", args: { kind } }] }, { text: "ok" }]);
  const log = eventLog();
  const outcome = await runAgentLoop(
    testConfig(workspace, model, { tools: [thrower] }),
    await sessionWithPrompt(workspace),
    log.emit,
  );
  expect(outcome.status).toBe("completed");
  expect(log.of("tool_end")[0]?.isError).toBe(true);
  const [result] = toolResultsIn(model.requests[1]?.messages ?? []);
  expect(result?.isError).toBe(true);
  return result?.content;
}

describe("a tool that throws gives an error result and the run continues", () => {
  it("keeps the class name of an unexpected error", async () => {
    expect(await contentFor("plain")).toBe("TypeError: cannot read properties of undefined");
  });

  it("passes ToolError and PermissionDeniedError messages as-is", async () => {
    expect(await contentFor("tool")).toBe("file not found: a.txt");
    expect(await contentFor("denied")).toBe("Editing .env is denied by rule edit .env.");
  });

  it("passes the message of any error agentry throws on purpose as-is, whatever its fault", async () => {
    expect(await contentFor("lock")).toBe(
      "Timed out after 30000 ms waiting for the lock /w/.agentry/x.lock (held by host:42). " +
        "If no agentry process is using this workspace, delete the lock file.",
    );
  });

  it("reports a thrown non-Error value", async () => {
    expect(await contentFor("string")).toBe("Error: bare string");
  });
});
