import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { HookSession, rootHooks } from "../../src/hooks/claude-hooks.ts";
import { HookRunner } from "../../src/hooks/hook-runner.ts";
import { readHookSettings } from "../../src/hooks/hook-settings.ts";
import { permissionRequestApprover } from "../../src/hooks/permission-events.ts";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { writeTool } from "../../src/tools/write/write.ts";
import {
  eventLog,
  sessionWithPrompt,
  tempWorkspace,
  testConfig,
  toolResultsIn,
} from "../agent/support/harness.ts";

const reply = (json: unknown) => ({ type: "command", command: `echo '${JSON.stringify(json)}'` });
const preToolUse = (json: unknown) => ({ PreToolUse: [{ matcher: "Write", hooks: [reply(json)] }] });
const allow = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } };

/** The root agent with the write tool, the hooks of `settings`, and a gate with no one to ask. */
async function rootWith(settings: Record<string, unknown>, rules: Ruleset = DEFAULT_RULES, toolCalls = 1) {
  const workspace = await tempWorkspace();
  const runner = new HookRunner(readHookSettings(settings, { label: "test", scope: "user" }).hooks, {
    workspace,
    env: { PATH: process.env.PATH },
    permissionMode: "default",
  });
  const session = new HookSession();
  const gate = createPermissionGate({
    rules,
    mode: "default",
    approve: permissionRequestApprover(runner, session),
  });
  const calls = Array.from({ length: toolCalls }, (_, i) => ({
    id: `w${i}`,
    name: "write",
    args: { path: `note${i}.txt`, content: "from the model" },
  }));
  const model = scriptedModel([{ toolCalls: calls }, { text: "done" }, { text: "again" }]);
  const config = testConfig(workspace, model, {
    tools: [writeTool],
    hooks: [rootHooks(runner, session)],
    ask: gate,
  });
  const log = eventLog();
  const outcome = await runAgentLoop(config, await sessionWithPrompt(workspace), log.emit);
  const results = toolResultsIn(model.requests[1]?.messages ?? []);
  return { workspace, model, outcome, results, log };
}

describe("Claude Code hooks on the loop", () => {
  it("a PreToolUse allow answers the call's prompt where no one could", async () => {
    const { workspace, results } = await rootWith(preToolUse(allow));
    expect(results[0]?.isError).toBe(false);
    expect(await readFile(join(workspace, "note0.txt"), "utf8")).toBe("from the model");
  });

  it("without the hook, the same write is denied (no one to ask)", async () => {
    const { workspace, results } = await rootWith({});
    expect(results[0]).toMatchObject({ isError: true });
    expect(results[0]?.content).toContain("needs approval and no one can approve it");
    expect(existsSync(join(workspace, "note0.txt"))).toBe(false);
  });

  it("a PreToolUse allow never widens past a deny rule", async () => {
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "edit", pattern: "note*", action: "deny" }];
    const { workspace, results } = await rootWith(preToolUse(allow), rules);
    expect(results[0]?.content).toContain("is denied by rule edit:'note*':deny");
    expect(existsSync(join(workspace, "note0.txt"))).toBe(false);
  });

  it("updatedInput replaces the call's arguments (Claude Code's shape, read back as agentry's)", async () => {
    const { workspace } = await rootWith(
      preToolUse({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          updatedInput: { file_path: "note0.txt", content: "rewritten by the hook" },
        },
      }),
    );
    expect(await readFile(join(workspace, "note0.txt"), "utf8")).toBe("rewritten by the hook");
  });

  it("a PermissionRequest hook answers where no one could, and its deny holds", async () => {
    const allowed = await rootWith({
      PermissionRequest: [
        { matcher: "Write", hooks: [reply({ hookSpecificOutput: { decision: { behavior: "allow" } } })] },
      ],
    });
    expect(allowed.results[0]?.isError).toBe(false);
    const denied = await rootWith({
      PermissionRequest: [
        {
          matcher: "Write",
          hooks: [
            reply({ hookSpecificOutput: { decision: { behavior: "deny", message: "not on Fridays" } } }),
          ],
        },
      ],
    });
    expect(denied.results[0]?.content).toContain("by a permission hook: not on Fridays");
  });

  it("continue: false ends the run after the step, completed with the hook's reason", async () => {
    const { outcome, model } = await rootWith({
      PostToolUse: [{ hooks: [reply({ continue: false, stopReason: "the build is red" })] }],
      ...preToolUse(allow),
    });
    expect(outcome).toMatchObject({ status: "completed", stopReason: "the build is red" });
    expect(model.requests).toHaveLength(1);
  });

  it("SessionStart's output stays in the system prompt of every call", async () => {
    const { model } = await rootWith({
      SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "echo on branch main" }] }],
      ...preToolUse(allow),
    });
    expect(model.requests.map((request) => request.system.includes("on branch main"))).toEqual([true, true]);
  });
});
