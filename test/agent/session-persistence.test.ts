import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session, SessionExistsError } from "../../src/agent/session/session.ts";
import { InvalidSessionIdError } from "../../src/agent/session/session-id.ts";
import { userText } from "../../src/model/messages.ts";
import { STATE_GITIGNORE } from "../../src/state/state-dir.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { tempWorkspace, testConfig } from "./support/harness.ts";

async function lines(path: string | undefined): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(path ?? "", "utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("session transcripts on disk", () => {
  it("writes a versioned header, then one line per message and entry, and ignores .agentry in git", async () => {
    const workspace = await tempWorkspace();
    const session = await Session.create({
      workspace,
      agentName: "explore",
      model: "scripted:model",
      parentSessionId: "20250101-000000-parent",
      id: "sub-20250101-000001-child1",
    });
    expect(session.transcriptPath).toBe(
      join(workspace, ".agentry", "sessions", "sub-20250101-000001-child1.jsonl"),
    );
    expect(await readFile(join(workspace, ".agentry", ".gitignore"), "utf8")).toBe(STATE_GITIGNORE);

    await session.append(userText("find the tests"));
    const model = scriptedModel([{ text: "they are in test/" }]);
    await runAgentLoop(testConfig(workspace, model), session, () => {});

    const [header, ...entries] = await lines(session.transcriptPath);
    expect(header).toEqual({
      type: "header",
      version: 2,
      sessionId: "sub-20250101-000001-child1",
      parentSessionId: "20250101-000000-parent",
      agentName: "explore",
      model: "scripted:model",
      cwd: workspace,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(entries.map((e) => e.type)).toEqual(["message", "message", "outcome"]);
    expect(entries[1]).toMatchObject({
      message: { role: "assistant", content: [{ text: "they are in test/" }] },
    });
    expect(entries.every((e) => typeof e.at === "string")).toBe(true);
  });

  it("keeps an in-memory session off disk", async () => {
    const workspace = await tempWorkspace();
    const session = await Session.create({ workspace, agentName: "main", model: "m", persist: false });
    await session.append(userText("hi"));
    await session.record({ type: "error", message: "x" });
    expect(session.transcriptPath).toBeUndefined();
    expect(session.messages).toHaveLength(1);
    expect(existsSync(join(workspace, ".agentry"))).toBe(false);
  });

  it("refuses an id that could escape the sessions folder, or one already taken", async () => {
    const workspace = await tempWorkspace();
    await expect(Session.create({ workspace, agentName: "main", model: "m", id: "../evil" })).rejects.toThrow(
      InvalidSessionIdError,
    );
    await expect(Session.resume(workspace, "a/b")).rejects.toThrow(/Invalid session id "a\/b"/);
    await Session.create({ workspace, agentName: "main", model: "m", id: "same" });
    await expect(Session.create({ workspace, agentName: "main", model: "m", id: "same" })).rejects.toThrow(
      SessionExistsError,
    );
  });
});
