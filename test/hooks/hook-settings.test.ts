import { describe, expect, it } from "vitest";
import { HookSettingsError, readHookSettings } from "../../src/hooks/hook-settings.ts";

const source = { label: ".claude/settings.json", scope: "project" as const };

describe("reading a hooks value", () => {
  it("reads command hooks with their event, matcher, timeout (60 s by default) and source", () => {
    const { hooks, warnings } = readHookSettings(
      {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: "guard.sh", timeout: 5 }] },
          { hooks: [{ type: "command", command: "log.sh", async: true }] },
        ],
        Stop: [{ matcher: "ignored for Stop", hooks: [{ type: "command", command: "stop.sh" }] }],
      },
      source,
    );
    expect(warnings).toEqual([]);
    expect(hooks.map(({ matches: _, ...hook }) => hook)).toEqual([
      { event: "PreToolUse", matcher: "Bash", command: "guard.sh", timeoutMs: 5000, async: false, source },
      { event: "PreToolUse", command: "log.sh", timeoutMs: 60_000, async: true, source },
      {
        event: "Stop",
        matcher: "ignored for Stop",
        command: "stop.sh",
        timeoutMs: 60_000,
        async: false,
        source,
      },
    ]);
    // Stop takes no matcher: its hook runs whatever the matcher says.
    expect(hooks[2]?.matches("anything")).toBe(true);
  });

  it("warns about hooks it cannot run, and runs the rest", () => {
    const { hooks, warnings } = readHookSettings(
      {
        PostToolUseFailure: [{ hooks: [{ type: "command", command: "a" }] }],
        Bogus: [],
        PreToolUse: [
          { matcher: "Bash(", hooks: [{ type: "command", command: "b" }] },
          {
            hooks: [
              { type: "prompt", prompt: "Is this safe?" },
              { type: "command", command: "c" },
            ],
          },
        ],
      },
      source,
    );
    expect(hooks.map((hook) => hook.command)).toEqual(["c"]);
    expect(warnings).toEqual([
      ".claude/settings.json: hooks.PostToolUseFailure is an event agentry does not fire; its hooks do not run",
      ".claude/settings.json: hooks.Bogus is not a hook event; its hooks do not run",
      '.claude/settings.json: hooks.PreToolUse[0].matcher "Bash(" is not a valid regular expression; its hooks do not run',
      '.claude/settings.json: hooks.PreToolUse[1].hooks[0] is a "prompt" hook (agentry runs "command" hooks only); it does not run',
    ]);
  });

  it.each([
    [[], "hooks must map event names"],
    [{ PreToolUse: { matcher: "Bash" } }, "hooks.PreToolUse must be a list"],
    [{ PreToolUse: [{ matcher: "Bash" }] }, "hooks.PreToolUse[0] must be"],
    [{ PreToolUse: [{ matcher: 3, hooks: [] }] }, "hooks.PreToolUse[0].matcher must be a string"],
    [
      { Stop: [{ hooks: [{ type: "command" }] }] },
      "hooks.Stop[0].hooks[0].command must be the command to run",
    ],
    [
      { Stop: [{ hooks: [{ type: "command", command: "x", timeout: 0 }] }] },
      "timeout must be a positive number",
    ],
  ])("refuses a value in another shape, naming the place: %j", (value, message) => {
    expect(() => readHookSettings(value, source)).toThrow(HookSettingsError);
    expect(() => readHookSettings(value, source)).toThrow(message);
  });
});
