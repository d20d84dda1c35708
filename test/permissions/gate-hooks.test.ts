import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import {
  type Approver,
  type AskHandler,
  type AskRequest,
  createPermissionGate,
  type PermissionMode,
} from "../../src/permissions/gate.ts";
import type { PermissionRequest, Ruleset } from "../../src/permissions/types.ts";

/**
 * A hook's answer (Claude Code's `permissionDecision: "allow"`, a PermissionRequest hook, a skill's
 * `allowed-tools`) settles what a person would be asked — but never a protected path, leaving the
 * sandbox or reaching outside the workspace, which only a person may grant.
 */
const main = { path: ["main"] };
const rules: Ruleset = [
  ...DEFAULT_RULES,
  { permission: "edit", pattern: "*", action: "allow" },
  { permission: "unsandboxed", pattern: "*", action: "ask" },
  { permission: "bash", pattern: "rm *", action: "deny" },
];

const make: PermissionRequest = { permission: "bash", patterns: ["make"] };
/** What only a person may grant, each under the rules above in default mode. */
const PERSON_ONLY: Array<[name: string, request: PermissionRequest]> = [
  ["a protected path", { permission: "edit", patterns: [".git/config"] }],
  [
    "a protected path among ordinary ones",
    { permission: "edit", patterns: ["src/a.ts", ".claude/settings.json"] },
  ],
  ["leaving the sandbox", { permission: "unsandboxed", patterns: ["make"] }],
  ["a path outside the workspace", { permission: "external_directory", patterns: ["/etc/hosts"] }],
];

/** Records the prompts a person was shown, answering each with `answer`. */
function person(answer: "once" | "reject") {
  const shown: AskRequest[] = [];
  const onAsk: AskHandler = async (request) => {
    shown.push(request);
    return answer;
  };
  return { shown, onAsk };
}

describe("a tool call a hook approved (approvedByHook)", () => {
  it("is allowed where the mode would ask a person, with no one to ask", async () => {
    const gate = createPermissionGate({ rules, mode: "default" });
    await expect(gate(make, main)).rejects.toThrow(/needs approval/);
    await expect(gate({ ...make, approvedByHook: true }, main)).resolves.toBeUndefined();
    await expect(gate({ ...make, approvedByHook: false }, main)).rejects.toThrow(/needs approval/);
  });

  it.each(PERSON_ONLY)("still needs a person for %s", async (_name, request) => {
    const quiet = createPermissionGate({ rules, mode: "default" });
    await expect(quiet({ ...request, approvedByHook: true }, main)).rejects.toThrow(/no one can approve it/);
    const { shown, onAsk } = person("once");
    const asking = createPermissionGate({ rules, mode: "default", onAsk });
    await asking({ ...request, approvedByHook: true }, main);
    expect(shown).toHaveLength(1);
  });

  it("never lifts a deny rule or the mode's refusal", async () => {
    const gate = createPermissionGate({ rules, mode: "default" });
    await expect(
      gate({ permission: "bash", patterns: ["rm -rf x"], approvedByHook: true }, main),
    ).rejects.toThrow(/denied by rule bash:'rm \*':deny/);
    const plan = createPermissionGate({ rules, mode: "plan" });
    await expect(plan({ ...make, approvedByHook: true }, main)).rejects.toThrow(/plan mode/);
  });
});

describe("an approver (PermissionRequest hooks, a skill's allowed-tools)", () => {
  /** An approver answering `answer`, recording what it was asked. */
  function approver(answer: Awaited<ReturnType<Approver>>) {
    const asked: AskRequest[] = [];
    const approve: Approver = async (request) => {
      asked.push(request);
      return answer;
    };
    return { asked, approve };
  }

  it("its allow settles an ask before a person sees it", async () => {
    const { asked, approve } = approver({ behavior: "allow" });
    const { shown, onAsk } = person("reject");
    const gate = createPermissionGate({ rules, mode: "default", onAsk, approve });
    await expect(gate(make, main)).resolves.toBeUndefined();
    expect(asked.map((request) => [request.patterns, request.always, request.alwaysRules])).toEqual([
      [["make"], ["make"], ["Bash(make)"]],
    ]);
    expect(shown).toEqual([]);
  });

  it("its deny holds, with its message for the model, and no person is asked", async () => {
    const { approve } = approver({ behavior: "deny", message: "builds run in CI only" });
    const { shown, onAsk } = person("once");
    const gate = createPermissionGate({ rules, mode: "default", onAsk, approve });
    await expect(gate(make, main)).rejects.toThrow(
      "bash 'make' is denied for agent main by a permission hook: builds run in CI only. Do not retry it.",
    );
    // Even where only a person could have allowed it.
    await expect(gate({ permission: "edit", patterns: [".git/config"] }, main)).rejects.toThrow(
      /by a permission hook: builds run in CI only/,
    );
    expect(shown).toEqual([]);
  });

  it("no answer leaves it to the person", async () => {
    const { asked, approve } = approver(undefined);
    const { shown, onAsk } = person("once");
    const gate = createPermissionGate({ rules, mode: "default", onAsk, approve });
    await expect(gate(make, main)).resolves.toBeUndefined();
    expect([asked.length, shown.length]).toEqual([1, 1]);
  });

  it.each(PERSON_ONLY)("its allow does not cover %s: a person is still asked", async (_name, request) => {
    const { approve } = approver({ behavior: "allow" });
    const { shown, onAsk } = person("reject");
    const gate = createPermissionGate({ rules, mode: "default", onAsk, approve });
    await expect(gate(request, main)).rejects.toThrow(/The user rejected/);
    expect(shown).toHaveLength(1);
    const quiet = createPermissionGate({ rules, mode: "default", approve });
    await expect(quiet(request, main)).rejects.toThrow(/no one can approve it/);
  });

  it.each<PermissionMode>(["bypass", "accept-edits"])(
    "is not consulted where the %s mode settles the ask",
    async (mode) => {
      const { asked, approve } = approver({ behavior: "deny", message: "no" });
      const gate = createPermissionGate({ rules: [], mode, approve });
      await expect(gate({ permission: "edit", patterns: ["src/a.ts"] }, main)).resolves.toBeUndefined();
      expect(asked).toEqual([]);
    },
  );
});
