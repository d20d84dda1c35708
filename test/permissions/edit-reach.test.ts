import { describe, expect, it } from "vitest";
import { editReach, sandboxCeiling } from "../../src/permissions/edit-reach.ts";
import { evaluate } from "../../src/permissions/evaluate.ts";
import type { PermissionMode } from "../../src/permissions/modes.ts";
import type { PermissionAction, PermissionRule, Ruleset } from "../../src/permissions/types.ts";
import { DEFAULT_SANDBOX_SETTINGS, type SandboxBackend } from "../../src/sandbox/policy.ts";
import { policyForAgent } from "../../src/sandbox/policy-for-agent.ts";
import { tempDir } from "../support/temp-dir.ts";

/** `agents list|show` label an agent's powers with these; issue 29 found "read-only" on one that wrote docs/. */

const edit = (pattern: string, action: PermissionAction): PermissionRule => ({
  permission: "edit",
  pattern,
  action,
});
const read = (pattern: string): PermissionRule => ({ permission: "read", pattern, action: "allow" });
const narrow = (rule: PermissionRule): PermissionRule => ({ ...rule, narrowOnly: true });

const CASES: Array<[name: string, rules: Ruleset, reach: ReturnType<typeof editReach>]> = [
  ["no rules (every edit asked)", [], { kind: "workspace" }],
  ["edits denied", [edit("*", "deny")], { kind: "none" }],
  ["everything denied", [{ permission: "*", pattern: "*", action: "deny" }], { kind: "none" }],
  ["one folder denied", [edit("src/**", "deny")], { kind: "workspace" }],
  [
    "docs/** allowed after the catch-all deny",
    [edit("*", "deny"), edit("docs/**", "allow")],
    {
      kind: "only",
      patterns: ["docs/**"],
    },
  ],
  [
    "an asked folder after the deny",
    [edit("*", "deny"), edit("notes/*.md", "ask")],
    {
      kind: "only",
      patterns: ["notes/*.md"],
    },
  ],
  [
    "the deny after the allow (it wins everywhere)",
    [edit("docs/**", "allow"), edit("*", "deny")],
    {
      kind: "none",
    },
  ],
  [
    "a deny of that folder again, later",
    [edit("*", "deny"), edit("docs/**", "allow"), edit("docs/**", "deny")],
    {
      kind: "only",
      patterns: ["docs/**"],
    },
  ],
  ["allowed again after a deny", [edit("*", "deny"), edit("*", "allow")], { kind: "workspace" }],
  [
    "a later deny of another folder stays closed",
    [edit("*", "deny"), edit("docs/**", "allow"), edit("secrets/**", "deny")],
    { kind: "only", patterns: ["docs/**"] },
  ],
  [
    "the same folder opened twice is named once",
    [edit("*", "deny"), edit("docs/**", "allow"), edit("docs/**", "ask")],
    { kind: "only", patterns: ["docs/**"] },
  ],
  [
    "another permission's rule for every path after the deny",
    [edit("*", "deny"), { permission: "bash", pattern: "*", action: "allow" }],
    { kind: "none" },
  ],
  [
    "another permission's allow after the deny opens no edit",
    [edit("*", "deny"), read("docs/**")],
    { kind: "none" },
  ],
  // A narrowing rule (an untrusted repository's) decides only where it is stricter than the others.
  [
    "a narrowing allow after the deny opens nothing",
    [edit("*", "deny"), narrow(edit("docs/**", "allow"))],
    { kind: "none" },
  ],
  [
    "a narrowing ask after the deny opens nothing",
    [edit("*", "deny"), narrow(edit("*", "ask"))],
    { kind: "none" },
  ],
  ["a narrowing deny of every edit", [edit("*", "allow"), narrow(edit("*", "deny"))], { kind: "none" }],
  [
    "a narrowing deny with a narrowing allow after it leaves that folder to the others",
    [edit("*", "ask"), narrow(edit("*", "deny")), narrow(edit("docs/**", "allow"))],
    { kind: "only", patterns: ["docs/**"] },
  ],
  [
    "a narrowing deny before the user's allow of every edit",
    [narrow(edit("*", "deny")), edit("*", "allow")],
    { kind: "none" },
  ],
  [
    "a narrowing deny of one folder",
    [edit("*", "allow"), narrow(edit("src/**", "deny"))],
    { kind: "workspace" },
  ],
];

describe("editReach", () => {
  it.each(CASES)("%s", (_name, rules, reach) => {
    expect(editReach(rules)).toEqual(reach);
  });

  // The direction that matters for a label: "read-only" only where the gate denies every edit. (The
  // other way it may over-reach: "a deny of that folder again" still names docs/**.)
  it.each(CASES)("says none only where the gate denies these paths: %s", (_name, rules, reach) => {
    const paths = ["src/index.ts", "docs/new.md", "notes/a.md", "README.md", ".agentry/plans/p.md"];
    const editable = paths.filter((path) => evaluate(rules, "edit", path) !== "deny");
    if (editable.length > 0) expect(reach.kind).not.toBe("none");
  });
});

describe("sandboxCeiling", () => {
  const backend: SandboxBackend = { kind: "bwrap", path: "/usr/bin/bwrap", disableUserns: true };

  it.each(
    CASES.flatMap(([name, rules]) =>
      (["default", "plan"] as PermissionMode[]).map(
        (mode) => [`${name}, ${mode} mode`, rules, mode] as const,
      ),
    ),
  )("is the ceiling policyForAgent derives: %s", async (_name, rules, mode) => {
    const workspace = await tempDir("agentry-edit-reach-");
    const policy = await policyForAgent({
      backend,
      rules,
      mode,
      workspace,
      settings: DEFAULT_SANDBOX_SETTINGS,
    });
    expect(sandboxCeiling(rules, mode)).toBe(policy.ceiling);
  });
});
