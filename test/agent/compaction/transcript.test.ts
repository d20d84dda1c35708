import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Session } from "../../../src/agent/session/session.ts";
import {
  readTranscript,
  transcriptHistory,
  transcriptMessages,
} from "../../../src/agent/session/transcript.ts";
import type { Message } from "../../../src/model/messages.ts";
import { tempWorkspace } from "../support/harness.ts";
import { assistant, toolTurns, user } from "./messages.ts";

const fixture = new URL("../fixtures/transcript-v1-compaction.jsonl", import.meta.url).pathname;
const record = (replaced: number, kept: number) => ({
  summary: `summary of ${replaced}`,
  replaced,
  kept,
  trigger: "auto" as const,
  tokensBefore: 1_000,
  tokensAfter: 100,
  model: "test:summarizer",
  usage: { input: 900, output: 50, cacheRead: 0, cacheWrite: 0 },
});
const texts = (messages: readonly Message[]) =>
  messages.map((m) =>
    m.role === "tool_result"
      ? `results ${m.content.map((p) => p.toolCallId).join(",")}`
      : m.role === "assistant"
        ? `assistant ${m.content.map((p) => (p.type === "tool_call" ? p.id : p.type === "text" ? p.text : "")).join(",")}`
        : `user ${m.content.map((p) => (p.type === "text" ? p.text.slice(0, 20) : "")).join("")}`,
  );

describe("a compaction in the transcript", () => {
  it("reads the v1 fixture: the full history stays, the history to continue is the compacted form", async () => {
    const transcript = await readTranscript(fixture);
    expect(transcript.warnings).toEqual([]);
    expect(transcript.entries.map((e) => e.type)).toEqual([
      "message",
      "message",
      "message",
      "message",
      "message",
      "compaction",
      "message",
      "outcome",
    ]);
    expect(transcript.entries[5]).toMatchObject({
      type: "compaction",
      replaced: 3,
      kept: 2,
      trigger: "auto",
      model: "anthropic:claude-haiku-4-5",
      usage: { input: 150000, output: 300 },
    });
    expect(transcriptMessages(transcript)).toHaveLength(6);
    const history = transcriptHistory(transcript);
    expect(texts(history.messages)).toEqual([
      "user [This conversation w",
      "assistant toolu_02",
      "results toolu_02",
      "assistant Fixed the TODO in src/a.ts.",
    ]);
    expect(history.measuredFrom).toBe(3);
  });

  it("is written by Session.compact and read back by resume, with every message still in the file", async () => {
    const workspace = await tempWorkspace();
    const session = await Session.create({ workspace, agentName: "main", model: "test:model" });
    for (const message of toolTurns(3)) await session.append(message); // 7 messages
    await session.compact(record(3, 4));
    expect(texts(session.messages)).toEqual([
      "user summary of 3",
      "assistant c1",
      "results c1",
      "assistant c2",
      "results c2",
    ]);
    expect(session.measuredFrom).toBe(5);
    await session.append(assistant("done"));
    await session.append(user("and now?"));
    // A second compaction works on the compacted form.
    await session.compact(record(5, 2));
    expect(texts(session.messages)).toEqual(["user summary of 5", "assistant done", "user and now?"]);
    session.close();

    const transcript = await readTranscript(session.transcriptPath as string);
    expect(transcriptMessages(transcript)).toHaveLength(9);
    const resumed = await Session.resume(workspace, session.id);
    expect(resumed.messages).toEqual(session.messages);
    expect(resumed.measuredFrom).toBe(3);
    resumed.close();
  });

  it("refuses a compaction that does not account for every message, and writes nothing", async () => {
    const workspace = await tempWorkspace();
    const session = await Session.create({ workspace, agentName: "main", model: "test:model" });
    for (const message of toolTurns(2)) await session.append(message); // 5 messages
    const before = readFileSync(session.transcriptPath as string, "utf8");
    await expect(session.compact(record(3, 1))).rejects.toThrow(/3 replaced \+ 1 kept ≠ 5 messages/);
    await expect(session.compact(record(0, 5))).rejects.toThrow(/at least one message/);
    expect(session.messages).toHaveLength(5);
    expect(readFileSync(session.transcriptPath as string, "utf8")).toBe(before);
    session.close();
  });
});
