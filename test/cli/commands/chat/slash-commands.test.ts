import { describe, expect, it } from "vitest";
import { parseSlashCommand } from "../../../../src/cli/commands/chat/slash-commands.ts";

describe("slash command parsing", () => {
  it("reads a command name (case-insensitive) and its arguments", () => {
    expect(parseSlashCommand("/help")).toEqual({ name: "help", args: "" });
    expect(parseSlashCommand("  /Model   openai:gpt-5.5  ")).toEqual({
      name: "model",
      args: "openai:gpt-5.5",
    });
    expect(parseSlashCommand("/frobnicate now")).toEqual({ name: "frobnicate", args: "now" });
  });

  it("leaves prompts alone, including ones that start with a path", () => {
    expect(parseSlashCommand("fix /help text")).toBeUndefined();
    expect(parseSlashCommand("/usr/bin/env is missing")).toBeUndefined();
    expect(parseSlashCommand("/tmp/notes.txt: what is in it?")).toBeUndefined();
    expect(parseSlashCommand("/")).toBeUndefined();
    expect(parseSlashCommand("/ help")).toBeUndefined();
  });
});
