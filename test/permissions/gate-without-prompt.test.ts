import { describe, expect, it } from "vitest";
import { createPermissionGate, type PermissionMode } from "../../src/permissions/gate.ts";
import { PermissionDeniedError, type PermissionRequest, type Ruleset } from "../../src/permissions/types.ts";

const rules: Ruleset = [
  { permission: "read", pattern: "*", action: "allow" },
  { permission: "read", pattern: "*.env", action: "ask" },
  { permission: "read", pattern: "secret/*", action: "deny" },
  { permission: "edit", pattern: "*", action: "ask" },
];
const main = { path: ["main"] };
const quiet = (permission: string, ...patterns: string[]): PermissionRequest => ({
  permission,
  patterns,
  prompt: false,
});

/** What a request with `prompt: false` refused, or "allowed". */
async function refused(gate: ReturnType<typeof createPermissionGate>, request: PermissionRequest) {
  try {
    await gate(request, main);
    return "allowed";
  } catch (error) {
    if (!(error instanceof PermissionDeniedError)) throw error;
    return error.refused;
  }
}

describe("permission gate: requests that must not prompt (prompt: false)", () => {
  it("refuses what would be asked without showing a prompt, apart from what a rule denies", async () => {
    const shown: unknown[] = [];
    const gate = createPermissionGate({
      rules,
      mode: "default",
      onAsk: async (request) => {
        shown.push(request);
        return "once";
      },
    });
    expect(await refused(gate, quiet("read", "a.ts", ".env", "secret/key", "sub/.env"))).toEqual({
      denied: ["secret/key"],
      needsApproval: [".env", "sub/.env"],
    });
    expect(await refused(gate, quiet("read", "a.ts", "b.ts"))).toBe("allowed");
    expect(shown).toEqual([]);
  });

  it("counts an earlier 'always' approval, and lets the mode settle what it settles", async () => {
    const gate = createPermissionGate({ rules, mode: "default", onAsk: async () => "always" });
    await gate({ permission: "read", patterns: [".env"] }, main);
    expect(await refused(gate, quiet("read", ".env", "sub/.env"))).toBe("allowed");

    const modes: Record<PermissionMode, unknown> = {
      default: { denied: [], needsApproval: ["x.ts"] },
      "accept-edits": "allowed",
      bypass: "allowed",
      plan: { denied: ["x.ts"], needsApproval: [] },
    };
    for (const [mode, expected] of Object.entries(modes)) {
      const byMode = createPermissionGate({ rules, mode: mode as PermissionMode });
      expect(await refused(byMode, quiet("edit", "x.ts")), mode).toEqual(expected);
    }
  });

  it("an ordinary request still prompts and a denied one names only its deny", async () => {
    const gate = createPermissionGate({ rules, mode: "default", onAsk: async () => "once" });
    await expect(gate({ permission: "read", patterns: [".env"] }, main)).resolves.toBeUndefined();
    const error = await gate({ permission: "read", patterns: ["secret/key"] }, main).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).refused).toBeUndefined();
  });
});
