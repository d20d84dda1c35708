import { describe, expect, it } from "vitest";
import type { AskHandler } from "../../src/permissions/gate.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import type { PermissionRequest, Ruleset } from "../../src/permissions/types.ts";

/** What the model reads when a call is refused: what was refused, by what, and what to do instead. */
const agent = { path: ["main", "explore-1"] };

async function refusal(
  gate: ReturnType<typeof createPermissionGate>,
  request: PermissionRequest,
): Promise<string> {
  try {
    await gate(request, agent);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error("allowed");
}

describe("a refused call says", () => {
  it("which part of a command a rule denied, naming the rule and the whole command", async () => {
    const gate = createPermissionGate({
      rules: [
        { permission: "bash", pattern: "*", action: "allow" },
        { permission: "bash", pattern: "rm *", action: "deny" },
      ],
      mode: "default",
    });
    expect(
      await refusal(gate, { permission: "bash", patterns: ["ls", "rm -rf x"], title: "ls; rm -rf x" }),
    ).toBe(
      `bash 'rm -rf x' (part of "ls; rm -rf x") is denied by rule bash:'rm *':deny for agent main/explore-1; do not retry it. Choose another approach, or report that you need it.`,
    );
    expect(await refusal(gate, { permission: "bash", patterns: ["ls", "rm x"] })).toBe(
      `bash 'rm x' (part of "ls; rm x") is denied by rule bash:'rm *':deny for agent main/explore-1; do not retry it. Choose another approach, or report that you need it.`,
    );
  });

  it("with no one to ask, how the user can allow it: accept-edits for edits, bypass or a rule for the rest", async () => {
    const gate = createPermissionGate({ rules: [], mode: "default" });
    expect(await refusal(gate, { permission: "edit", patterns: ["src/a.ts"] })).toBe(
      `edit 'src/a.ts' needs approval and no one can approve it in this run (permission mode "default"), so it is denied for agent main/explore-1. Do not retry it; choose another approach, or report that you need it. (The user can allow it with --permission-mode accept-edits or the rule {"permission":"edit","pattern":"src/a.ts","action":"allow"}.)`,
    );
    expect(await refusal(gate, { permission: "bash", patterns: ["make", "make install"] })).toBe(
      `bash 'make', 'make install' needs approval and no one can approve it in this run (permission mode "default"), so it is denied for agent main/explore-1. Do not retry it; choose another approach, or report that you need it. (The user can allow it with --permission-mode bypass or the rule {"permission":"bash","pattern":"make","action":"allow"}.)`,
    );
  });

  it("that a protected path needs a person, even where the mode or a rule would allow it", async () => {
    const gate = createPermissionGate({
      rules: [
        { permission: "edit", pattern: "*", action: "allow" },
        { permission: "read", pattern: "*", action: "allow" },
      ],
      mode: "accept-edits",
    });
    expect(await refusal(gate, { permission: "edit", patterns: [".git/hooks/pre-commit"] })).toBe(
      `edit '.git/hooks/pre-commit' is a protected path (git's config and hooks, agentry's config and state, agent definitions, MCP and editor settings): writing it needs a person's approval, and no one can approve it in this run, so it is denied for agent main/explore-1. Do not retry it; report the change you would make instead. (The user can run interactively and approve it, or use --permission-mode bypass.)`,
    );
    await expect(
      gate({ permission: "read", patterns: [".git/hooks/pre-commit"] }, agent),
    ).resolves.toBeUndefined();
    await expect(gate({ permission: "edit", patterns: ["src/a.ts"] }, agent)).resolves.toBeUndefined();
  });
});

describe("an 'always' answer approves", () => {
  function gateAnswering(rules: Ruleset) {
    const shown: string[][] = [];
    const onAsk: AskHandler = async (request) => {
      shown.push(request.always);
      return "always";
    };
    return { gate: createPermissionGate({ rules, mode: "default", onAsk }), shown };
  }

  it("every path of the ask rule that matched, for reads, and only that permission", async () => {
    const { gate, shown } = gateAnswering([
      { permission: "read", pattern: "*", action: "allow" },
      { permission: "read", pattern: "*.env", action: "ask" },
      { permission: "edit", pattern: "*.env", action: "ask" },
    ]);
    await gate({ permission: "read", patterns: ["a.env"] }, agent);
    await gate({ permission: "read", patterns: ["b.env"] }, agent);
    expect(shown).toEqual([["*.env"]]);
    await gate({ permission: "edit", patterns: ["a.env"] }, agent);
    expect(shown).toEqual([["*.env"], ["*.env"]]);
  });

  it("a command, or the prefix of one with a subcommand, never a whole bash rule; one exact protected path", async () => {
    const { gate, shown } = gateAnswering([
      { permission: "bash", pattern: "*", action: "ask" },
      { permission: "edit", pattern: "*", action: "ask" },
    ]);
    await gate({ permission: "bash", patterns: ["make"] }, agent);
    await gate({ permission: "bash", patterns: ["make"] }, agent);
    await gate({ permission: "bash", patterns: ["make install"] }, agent);
    await gate({ permission: "edit", patterns: [".claude/a.md"] }, agent);
    await gate({ permission: "edit", patterns: [".claude/a.md"] }, agent);
    await gate({ permission: "edit", patterns: [".claude/b.md"] }, agent);
    expect(shown).toEqual([["make"], ["make install *"], [".claude/a.md"], [".claude/b.md"]]);
  });

  it("a value holding wildcard characters as written: `rm -rf *` never approves `rm -rf /`", async () => {
    const shown: string[][] = [];
    const onAsk: AskHandler = async (request) => {
      shown.push([...request.always, ...request.alwaysRules]);
      return "always";
    };
    const gate = createPermissionGate({
      rules: [{ permission: "bash", pattern: "*", action: "ask" }],
      mode: "default",
      onAsk,
    });
    for (const command of ["rm -rf *", "rm -rf *", "rm -rf /"])
      await gate({ permission: "bash", patterns: [command] }, agent);
    // Shown as `Bash(rm -rf *)`, not `Bash(rm -rf:*)`: the person approves this command, not every `rm -rf`.
    expect(shown).toEqual([
      ["rm -rf *", "Bash(rm -rf *)"],
      ["rm -rf /", "Bash(rm -rf /)"],
    ]);
  });

  it("a URL no rule names, with its `?` and `*` as written", async () => {
    const { gate, shown } = gateAnswering([]);
    const webfetch = (url: string) => gate({ permission: "webfetch", patterns: [url] }, agent);
    await webfetch("https://x.dev/search?q=*");
    await webfetch("https://x.dev/search?q=*");
    await webfetch("https://x.dev/search/q=../../admin");
    expect(shown).toEqual([["https://x.dev/search?q=*"], ["https://x.dev/search/q=../../admin"]]);
  });

  it("a pattern no rule asked for (no rule matched) exactly", async () => {
    const { gate, shown } = gateAnswering([]);
    await gate({ permission: "webfetch", patterns: ["https://x.dev/a"] }, agent);
    await gate({ permission: "webfetch", patterns: ["https://x.dev/a"] }, agent);
    await gate({ permission: "webfetch", patterns: ["https://x.dev/b"] }, agent);
    expect(shown).toEqual([["https://x.dev/a"], ["https://x.dev/b"]]);
  });
});
