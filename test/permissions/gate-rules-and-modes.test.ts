import { describe, expect, it } from "vitest";
import { createPermissionGate, type PermissionMode } from "../../src/permissions/gate.ts";
import { PermissionDeniedError, type PermissionRequest, type Ruleset } from "../../src/permissions/types.ts";

const main = { path: ["main"] };
const explorer = { path: ["main", "explore-1"] };

const rules: Ruleset = [
  { permission: "*", pattern: "*", action: "ask" },
  { permission: "read", pattern: "*", action: "allow" },
  { permission: "bash", pattern: "rm *", action: "deny" },
];

const bash = (...patterns: string[]): PermissionRequest => ({
  permission: "bash",
  patterns,
  title: patterns.join("; "),
});
const edit: PermissionRequest = { permission: "edit", patterns: ["src/a.ts"], title: "edit src/a.ts" };

async function denial(promise: Promise<void>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PermissionDeniedError);
  return (error as Error).message;
}

describe("permission gate: rules", () => {
  it("resolves when the rules allow", async () => {
    const gate = createPermissionGate({ rules, mode: "default" });
    await expect(gate({ permission: "read", patterns: ["src/a.ts"] }, main)).resolves.toBeUndefined();
  });

  it("throws a message naming the rule and the agent path when a rule denies", async () => {
    const gate = createPermissionGate({ rules, mode: "default" });
    expect(await denial(gate(bash("rm -rf x"), explorer))).toBe(
      "bash 'rm -rf x' is denied by rule bash:'rm *':deny for agent main/explore-1; do not retry it. Choose another approach, or report that you need it.",
    );
  });

  it("names the whole command when only a part is denied", async () => {
    const gate = createPermissionGate({ rules, mode: "bypass" });
    expect(await denial(gate(bash("ls", "rm x"), main))).toMatch(
      /^bash 'rm x' \(part of "ls; rm x"\) is denied by rule/,
    );
  });

  it("asks in default mode and, with no one to ask, denies saying how to allow it", async () => {
    const gate = createPermissionGate({ rules, mode: "default" });
    const message = await denial(gate(bash("npm install"), main));
    expect(message).toContain("bash 'npm install' needs approval and no one can approve it");
    expect(message).toContain("--permission-mode bypass");
    expect(message).toContain('{"permission":"bash","pattern":"npm install","action":"allow"}');
    expect(await denial(gate(edit, main))).toContain("--permission-mode accept-edits");
  });
});

describe("permission gate: modes", () => {
  const gateIn = (mode: PermissionMode) => createPermissionGate({ rules, mode });

  it("bypass allows every ask but still honours explicit denies", async () => {
    await expect(gateIn("bypass")(bash("npm install"), main)).resolves.toBeUndefined();
    await expect(gateIn("bypass")(edit, main)).resolves.toBeUndefined();
    await expect(gateIn("bypass")(bash("rm x"), main)).rejects.toThrow(PermissionDeniedError);
  });

  it("accept-edits allows edits and nothing else", async () => {
    await expect(gateIn("accept-edits")(edit, main)).resolves.toBeUndefined();
    await expect(gateIn("accept-edits")(bash("npm install"), main)).rejects.toThrow(/needs approval/);
  });

  it("plan denies edits and commands that are not read-only, allows read-only ones", async () => {
    expect(await denial(gateIn("plan")(edit, explorer))).toBe(
      "edit 'src/a.ts' is denied for agent main/explore-1: plan mode (--permission-mode plan) does not allow editing files; describe the change in your plan instead. Do not retry it.",
    );
    await expect(gateIn("plan")(bash("npm install"), main)).rejects.toThrow(/plan mode/);
    await expect(gateIn("plan")(bash("ls -la", "git status"), main)).resolves.toBeUndefined();
    await expect(gateIn("plan")(bash("ls", "> out"), main)).rejects.toThrow(/plan mode/);
  });

  it("never overrides an explicit allow", async () => {
    const allowEdits: Ruleset = [{ permission: "edit", pattern: "*", action: "allow" }];
    await expect(
      createPermissionGate({ rules: allowEdits, mode: "plan" })(edit, main),
    ).resolves.toBeUndefined();
  });

  it("plan mode still prompts for permissions other than edit and bash", async () => {
    const asked: string[] = [];
    const gate = createPermissionGate({
      rules,
      mode: "plan",
      onAsk: async (request) => {
        asked.push(request.permission);
        return "once";
      },
    });
    await gate({ permission: "webfetch", patterns: ["https://example.com"] }, main);
    expect(asked).toEqual(["webfetch"]);
  });
});
