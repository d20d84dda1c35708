import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTranscript, readTranscript, transcriptMessages } from "../../src/agent/session/transcript.ts";
import {
  migrateTranscript,
  TRANSCRIPT_MIGRATIONS,
  TranscriptFormatError,
} from "../../src/agent/session/transcript-migrations.ts";

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

describe("the transcript format", () => {
  it("reads a v1 transcript with every entry and part type", async () => {
    const transcript = await readTranscript(fixture("transcript-v1.jsonl"));
    expect(transcript.warnings).toEqual([]);
    expect(transcript.header).toEqual({
      type: "header",
      version: 2,
      sessionId: "20250114-093012-k3f9qa",
      agentName: "main",
      model: "anthropic:claude-sonnet-4-5",
      cwd: "/home/user/project",
      createdAt: "2025-01-14T09:30:12.000Z",
    });
    expect(transcript.entries.map((e) => e.type)).toEqual([
      "message",
      "message",
      "message",
      "message",
      "outcome",
      "message",
      "error",
      "outcome",
      "abort",
    ]);
    const messages = transcriptMessages(transcript);
    expect(messages[1]).toMatchObject({
      role: "assistant",
      content: [
        { type: "reasoning", signature: "sig-abc" },
        { type: "text" },
        { type: "tool_call", id: "toolu_01", args: { path: "package.json" } },
      ],
      usage: { cost: 0.0051 },
    });
    expect(messages[4]?.content[1]).toEqual({ type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" });
  });

  it("refuses a transcript from a newer agentry with an actionable message", () => {
    const text = `${JSON.stringify({ type: "header", version: 99, sessionId: "x" })}\n`;
    expect(() => parseTranscript(text, "x.jsonl")).toThrow(
      new TranscriptFormatError(
        "x.jsonl uses transcript format v99, but this agentry reads up to v2; upgrade agentry.",
      ),
    );
  });

  it("refuses a file that is not a transcript", () => {
    expect(() => parseTranscript('{"hello":1}\n', "notes.jsonl")).toThrow(/not an agentry transcript/);
    expect(() => parseTranscript("", "empty.jsonl")).toThrow(/empty\.jsonl is empty/);
  });

  it("skips an entry that does not match the format, with a warning naming its line", () => {
    const lines = readFileSync(fixture("transcript-v1.jsonl"), "utf8").split("\n").slice(0, 2);
    lines[0] = lines[0]?.replace('"version":1', '"version":2') ?? "";
    lines.push('{"type":"message","message":{"role":"robot"},"at":"x"}', "");
    const transcript = parseTranscript(lines.join("\n"), "t.jsonl");
    expect(transcript.entries).toHaveLength(1);
    expect(transcript.warnings).toEqual([
      expect.stringMatching(/^t\.jsonl: line 3 is not a valid entry \(message/),
    ]);
  });

  it("keeps the reason of a stalled run's outcome when it reads it back", () => {
    const header = readFileSync(fixture("transcript-v1.jsonl"), "utf8").split("\n")[0];
    const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };
    const outcome = {
      status: "error",
      error: "no model or tool activity for 10 min",
      reason: "stalled",
      text: "",
      turns: 1,
      usage,
      durationMs: 5,
      sessionId: "s",
    };
    const text = `${header}\n${JSON.stringify({ type: "outcome", outcome, at: "t" })}\n`;
    const [entry] = parseTranscript(text, "t.jsonl").entries;
    expect(entry).toEqual({ type: "outcome", outcome, at: "t" });
  });

  it("upgrades older versions step by step through the migration table", () => {
    const v0 = [
      { type: "header", version: 0, id: "old", agent: "main", model: "m", cwd: "/", createdAt: "t" },
      { type: "msg", role: "user", text: "hi", at: "t" },
    ];
    const toV1 = (lines: Array<Record<string, unknown>>) => [
      {
        type: "header",
        version: 1,
        sessionId: lines[0]?.id,
        agentName: lines[0]?.agent,
        model: "m",
        cwd: "/",
        createdAt: "t",
      },
      ...lines.slice(1).map((line) => ({
        type: "message",
        message: { role: "user", content: [{ type: "text", text: line.text }] },
        at: line.at,
      })),
    ];
    const text = `${v0.map((line) => JSON.stringify(line)).join("\n")}\n`;
    const transcript = parseTranscript(text, "old.jsonl", { ...TRANSCRIPT_MIGRATIONS, 0: toV1 });
    expect(transcript.header.sessionId).toBe("old");
    expect(transcriptMessages(transcript)).toEqual([
      { role: "user", content: [{ type: "text", text: "hi" }] },
    ]);
    expect(() => migrateTranscript(v0, 0, 1, {})).toThrow(/No migration from transcript format v0 to v1/);
  });
});
