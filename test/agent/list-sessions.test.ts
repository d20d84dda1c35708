import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { listSessions } from "../../src/agent/session/transcript.ts";
import { userText } from "../../src/model/messages.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { tempWorkspace, testConfig } from "./support/harness.ts";

it("lists a workspace's sessions, most recently updated first, with their summaries", async () => {
  const workspace = await tempWorkspace();
  expect(await listSessions(workspace)).toEqual([]);

  const older = await Session.create({
    workspace,
    agentName: "main",
    model: "scripted:model",
    id: "a-older",
  });
  // A later millisecond, so the summary's updatedAt can be told from its createdAt.
  await new Promise((resolve) => setTimeout(resolve, 5));
  await older.append(userText(`  Refactor the\n parser ${"please ".repeat(20)}`));
  await runAgentLoop(testConfig(workspace, scriptedModel([{ text: "done" }])), older, () => {});
  await new Promise((resolve) => setTimeout(resolve, 5));
  const child = await Session.create({
    workspace,
    agentName: "explore",
    model: "scripted:model",
    parentSessionId: "a-older",
    id: "sub-b-child",
  });
  await child.append(userText("look around"));
  await writeFile(join(workspace, ".agentry", "sessions", "junk.jsonl"), "not json\n");
  await writeFile(join(workspace, ".agentry", "sessions", "notes.txt"), "ignored");

  const sessions = await listSessions(workspace);

  expect(sessions.map((s) => s.id)).toEqual(["sub-b-child", "a-older"]);
  expect(sessions[0]).toEqual({
    id: "sub-b-child",
    parentSessionId: "a-older",
    agentName: "explore",
    model: "scripted:model",
    createdAt: child.createdAt,
    updatedAt: expect.any(String),
    messageCount: 1,
    title: "look around",
  });
  expect(sessions[1]).toMatchObject({ messageCount: 2, lastOutcome: "completed" });
  expect(sessions[1]?.title).toMatch(/^Refactor the parser please please .*…$/);
  expect(sessions[1]?.title.length).toBe(80);
  expect((sessions[1]?.updatedAt ?? "") > (sessions[1]?.createdAt ?? "")).toBe(true);
});
