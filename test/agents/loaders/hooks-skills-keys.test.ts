import { describe, expect, it } from "vitest";
import { loadAgentryAgent } from "../../../src/agents/loaders/agentry.ts";
import { loadClaudeAgent } from "../../../src/agents/loaders/claude.ts";

const file = "/p/.claude/agents/guarded.md";
const agent = (keys: string) => `---\nname: guarded\ndescription: Guarded.\n${keys}---\nBe careful.\n`;

describe("an agent file's hooks: and skills:", () => {
  it("keeps Claude Code hooks as written and the skills it preloads", () => {
    const { definition, diagnostics } = loadClaudeAgent(
      agent(
        "skills: pdf, internal-comms\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./guard.sh\n",
      ),
      file,
    );
    expect(diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
    expect(definition?.skills).toEqual(["pdf", "internal-comms"]);
    expect(definition?.hooks).toEqual({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] }],
    });
  });

  it("skips a file whose hooks cannot be read: the limits they enforce must not silently go", () => {
    const { definition, diagnostics } = loadClaudeAgent(agent("hooks:\n  PreToolUse: guard.sh\n"), file);
    expect(definition).toBeUndefined();
    expect(diagnostics).toContainEqual(
      expect.objectContaining({
        severity: "error",
        message: 'hooks.PreToolUse must be a list of { "matcher": …, "hooks": [ … ] }',
        action: "skipped the file",
      }),
    );
  });

  it("warns about a hook it cannot run, and keeps the rest (agentry's own format too)", () => {
    const { definition, diagnostics } = loadAgentryAgent(
      agent("hooks:\n  Stop:\n    - hooks:\n        - type: prompt\n          prompt: Done?\n"),
      "/p/.agentry/agents/guarded.md",
    );
    expect(definition?.hooks).toBeDefined();
    expect(diagnostics).toContainEqual(
      expect.objectContaining({
        severity: "warning",
        message:
          'hooks.Stop[0].hooks[0] is a "prompt" hook (agentry runs "command" hooks only); it does not run',
        action: "that hook does not run",
      }),
    );
  });
});
