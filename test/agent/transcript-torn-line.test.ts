import { appendFileSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { Session } from "../../src/agent/session/session.ts";
import { readTranscript } from "../../src/agent/session/transcript.ts";
import { userText } from "../../src/model/messages.ts";
import { tempWorkspace } from "./support/harness.ts";

it("skips a torn last line with a warning, and a resumed session starts its next line cleanly", async () => {
  const workspace = await tempWorkspace();
  const session = await Session.create({ workspace, agentName: "main", model: "m" });
  await session.append(userText("first"));
  const path = session.transcriptPath ?? "";
  // What a process killed in the middle of a write would leave behind.
  appendFileSync(path, '{"type":"message","message":{"role":"assistant","content":[{"type":"te');

  const torn = await readTranscript(path);
  expect(torn.entries).toHaveLength(1);
  expect(torn.warnings).toEqual([expect.stringContaining("the last line is incomplete")]);

  const resumed = await Session.resume(workspace, session.id);
  expect(resumed.warnings).toEqual(torn.warnings);
  expect(resumed.messages).toEqual([userText("first")]);
  await resumed.append(userText("second"));

  const repaired = await readTranscript(path);
  expect(repaired.entries.map((e) => (e.type === "message" ? e.message.content[0] : e))).toEqual([
    { type: "text", text: "first" },
    { type: "text", text: "second" },
  ]);
  expect(repaired.warnings).toEqual([expect.stringContaining("line 3 is not valid JSON")]);
  expect(readFileSync(path, "utf8").endsWith("\n")).toBe(true);
});
