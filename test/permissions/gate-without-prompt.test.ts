import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { createPermissionGate, type PermissionMode } from "../../src/permissions/gate.ts";
import {
  PermissionDeniedError,
  type PermissionRequest,
  type Ruleset,
  type SandboxProfile,
} from "../../src/permissions/types.ts";

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

  it("says what it refused and why, naming the whole request", async () => {
    const gate = createPermissionGate({ rules, mode: "default" });
    await expect(
      gate({ ...quiet("read", "a.ts", "secret/key", ".env"), title: "grep key ." }, main),
    ).rejects.toThrow(
      `read 'secret/key', '.env' (part of "grep key .") is not allowed for agent main without asking, and this request does not ask.`,
    );
  });

  it("lets a command through where its sandbox covers it, and only there", async () => {
    const command = (sandbox?: SandboxProfile): PermissionRequest => ({
      ...quiet("bash", "python3 build.py"),
      ...(sandbox === undefined ? {} : { sandbox }),
    });
    const asked = { denied: [], needsApproval: ["python3 build.py"] };
    const byDefault = createPermissionGate({ rules: DEFAULT_RULES, mode: "default" });
    expect(await refused(byDefault, command("read-only"))).toBe("allowed");
    expect(await refused(byDefault, command("workspace-write"))).toEqual(asked);
    expect(await refused(byDefault, command())).toEqual(asked);
    // Edits are free in accept-edits, so a workspace-write sandbox covers the command; unconfined, it still asks.
    const acceptEdits = createPermissionGate({ rules: DEFAULT_RULES, mode: "accept-edits" });
    expect(await refused(acceptEdits, command("workspace-write"))).toBe("allowed");
    expect(await refused(acceptEdits, command())).toEqual(asked);
    // A deny rule holds in the sandbox too.
    const denied: Ruleset = [...DEFAULT_RULES, { permission: "bash", pattern: "python3 *", action: "deny" }];
    const strict = createPermissionGate({ rules: denied, mode: "default" });
    expect(await refused(strict, command("read-only"))).toEqual({
      denied: ["python3 build.py"],
      needsApproval: [],
    });
  });

  it("an ordinary request still prompts and a denied one names only its deny", async () => {
    const gate = createPermissionGate({ rules, mode: "default", onAsk: async () => "once" });
    await expect(gate({ permission: "read", patterns: [".env"] }, main)).resolves.toBeUndefined();
    const error = await gate({ permission: "read", patterns: ["secret/key"] }, main).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).refused).toBeUndefined();
  });
});
