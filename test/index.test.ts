import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as agentry from "../src/index.ts";
import { scriptedModel } from "../src/testing/index.ts";

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "agentry-lib-"));
});
afterEach(() => rm(workspace, { recursive: true, force: true }));

describe("the public library API", () => {
  it("runs an agent with built-in tools, as the README shows", async () => {
    const { builtinTools, nodeOperations, runAgent, Session, userText, buildSystemPrompt } = agentry;
    await writeFile(join(workspace, "todo.txt"), "TODO: write docs\n");
    const model = scriptedModel([
      { toolCalls: [{ name: "read", args: { path: "todo.txt" } }] },
      { text: "One TODO: write docs." },
    ]);
    const session = await Session.create({ workspace, agentName: "main", model: model.id });
    await session.append(userText("List the TODOs"));
    const run = runAgent(
      {
        name: "main",
        model,
        systemPrompt: await buildSystemPrompt({ workspace }),
        tools: builtinTools(),
        workspace,
        ops: nodeOperations,
      },
      session,
    );
    const types: string[] = [];
    for await (const event of run) types.push(event.type);
    const outcome = await run.outcome;
    expect(outcome).toMatchObject({ status: "completed", text: "One TODO: write docs.", turns: 2 });
    expect(types).toContain("tool_end");
    expect(JSON.stringify(model.requests[1]?.messages)).toContain("TODO: write docs");
    const stored = await agentry.listSessions(workspace);
    expect(stored.map((s) => s.id)).toEqual([session.id]);
  });

  it("exports the contracts' runtime values and the CLI entry", () => {
    expect(agentry.EVENT_SCHEMA_VERSION).toBe(1);
    expect(agentry.EXIT_CODES).toMatchObject({ completed: 0, usage: 2, aborted: 130 });
    expect(agentry.PERMISSION_MODES).toEqual(["default", "accept-edits", "bypass", "plan"]);
    expect(typeof agentry.main).toBe("function");
    expect(typeof agentry.createModel).toBe("function");
    expect(typeof agentry.createPermissionGate).toBe("function");
    expect(() => agentry.createModel("nosuchprovider:x")).toThrow(agentry.ModelConfigError);
  });
});
