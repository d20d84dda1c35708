import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EventBody } from "../../src/agent/emitter.ts";
import { HookRunner } from "../../src/hooks/hook-runner.ts";
import { readHookSettings } from "../../src/hooks/hook-settings.ts";
import { tempDir } from "../support/temp-dir.ts";

const source = { label: "test settings", scope: "user" as const };

async function runnerWith(hooks: Record<string, unknown>) {
  const workspace = await tempDir("agentry-hooks-");
  const runner = new HookRunner(readHookSettings(hooks, source).hooks, {
    workspace,
    env: { PATH: process.env.PATH },
    permissionMode: "accept-edits",
  });
  const events: EventBody[] = [];
  return { runner, workspace, events, emit: (event: EventBody) => events.push(event) };
}

const command = (text: string, timeout?: number) => ({
  type: "command",
  command: text,
  ...(timeout === undefined ? {} : { timeout }),
});

describe("running hook commands", () => {
  it("gives each matching hook the event as JSON on stdin, in the workspace, with the project variables", async () => {
    const { runner, workspace } = await runnerWith({
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            command(
              'cat > stdin.json; printf "%s %s %s" "$PWD" "$CLAUDE_PROJECT_DIR" "$AGENTRY_PROJECT_DIR" > env.txt',
            ),
          ],
        },
        { matcher: "Write", hooks: [command("touch write-only")] },
      ],
    });
    await runner.run("PreToolUse", {
      match: "Bash",
      sessionId: "s1",
      input: { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t1" },
    });
    expect(JSON.parse(await readFile(join(workspace, "stdin.json"), "utf8"))).toEqual({
      session_id: "s1",
      transcript_path: join(workspace, ".agentry", "sessions", "s1.jsonl"),
      cwd: workspace,
      permission_mode: "acceptEdits",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "t1",
    });
    expect(await readFile(join(workspace, "env.txt"), "utf8")).toBe(`${workspace} ${workspace} ${workspace}`);
    await expect(readFile(join(workspace, "write-only"))).rejects.toThrow();
  });

  it("runs the hooks of one firing at once, and an identical command once", async () => {
    const { runner, workspace } = await runnerWith({
      Stop: [
        // Each waits until the other has started: run one after the other, neither would finish.
        { hooks: [command("touch a; while [ ! -e b ]; do sleep 0.02; done; echo x >> count")] },
        { hooks: [command("touch b; while [ ! -e a ]; do sleep 0.02; done")] },
        { hooks: [command("touch a; while [ ! -e b ]; do sleep 0.02; done; echo x >> count")] },
      ],
    });
    const answers = await runner.run("Stop", { sessionId: "s", input: {} });
    expect(answers).toHaveLength(2);
    expect(await readFile(join(workspace, "count"), "utf8")).toBe("x\n");
  });

  it("reads exit 0, exit 2, other exits, JSON and timeouts as Claude Code does, each as a hook_run event", async () => {
    const { runner, events, emit } = await runnerWith({
      PreToolUse: [
        { matcher: "A", hooks: [command("echo fine")] },
        { matcher: "B", hooks: [command("echo no rm here >&2; exit 2")] },
        { matcher: "C", hooks: [command("echo broken >&2; exit 1")] },
        {
          matcher: "D",
          hooks: [
            command(
              `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"safe","updatedInput":{"command":"ls -a"}}}'`,
            ),
          ],
        },
        { matcher: "E", hooks: [command("sleep 30", 0.2)] },
        { matcher: "F", hooks: [command('echo \'{"decision":"block","reason":"old style"}\'')] },
        { matcher: "G", hooks: [command("echo '{not json'")] },
      ],
    });
    const reply = async (match: string) => {
      const [answer] = await runner.run("PreToolUse", {
        match,
        sessionId: "s",
        input: {},
        emit,
        toolName: match,
      });
      const { hook: _, ...rest } = answer ?? { hook: undefined };
      return rest;
    };
    expect(await reply("A")).toEqual({});
    expect(await reply("B")).toEqual({ block: "no rm here" });
    expect(await reply("C")).toEqual({ error: "exit 1: broken" });
    expect(await reply("D")).toEqual({
      permission: { decision: "allow", reason: "safe" },
      updatedInput: { command: "ls -a" },
    });
    expect(await reply("E")).toEqual({ error: "timed out after 0.2s and was stopped" });
    expect(await reply("F")).toEqual({ permission: { decision: "deny", reason: "old style" } });
    expect(await reply("G")).toMatchObject({ error: expect.stringContaining("not JSON") });
    expect(events.map((event) => event.type === "hook_run" && [event.toolName, event.result])).toEqual([
      ["A", "ok"],
      ["B", "blocked"],
      ["C", "error"],
      ["D", "ok"],
      ["E", "timeout"],
      ["F", "blocked"],
      ["G", "error"],
    ]);
  });

  it("adds plain stdout as context only where Claude Code does", async () => {
    const { runner } = await runnerWith({
      UserPromptSubmit: [{ hooks: [command("echo remember the tests")] }],
      PostToolUse: [{ hooks: [command("echo shown to the user only")] }],
    });
    const [prompt] = await runner.run("UserPromptSubmit", { sessionId: "s", input: { prompt: "hi" } });
    expect(prompt?.context).toBe("remember the tests");
    const [post] = await runner.run("PostToolUse", { match: "Bash", sessionId: "s", input: {} });
    expect(post?.context).toBeUndefined();
  });
});
