import { existsSync } from "node:fs";
import { chmod, copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  CHILD_MARK,
  type WireMessage,
  wireMessages,
  wireSystem,
  wireTexts,
} from "../../subagents/support/subagent-harness.ts";
import { BUBBLEWRAP, describeWith, JQ } from "../../support/components.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { isRunning, until } from "../../support/processes.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

// Acceptance of issue 23 (hooks): Claude Code hook scripts as they are published, configured in Claude
// Code's settings files, run by `agentry run` against the test model server.

const FIXTURES = fileURLToPath(new URL("../../hooks/fixtures/", import.meta.url));
const PUBLIC = join(FIXTURES, "karanb192-claude-code-hooks");
const OWN = join(FIXTURES, "own");
const BIOME = fileURLToPath(new URL("../../../node_modules/.bin/", import.meta.url));

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A workspace with the hook scripts in `.claude/hooks/` and `settings` as `.claude/settings.json`. */
async function projectWithHooks(settings: unknown, scripts: string[]): Promise<TestWorkspace> {
  const ws = await makeWorkspace();
  await mkdir(join(ws.dir, ".claude", "hooks"), { recursive: true });
  for (const script of scripts) {
    const from = existsSync(join(PUBLIC, script)) ? join(PUBLIC, script) : join(OWN, script);
    const to = join(ws.dir, ".claude", "hooks", script);
    await copyFile(from, to);
    await chmod(to, 0o755);
  }
  await ws.write(".claude/settings.json", JSON.stringify({ hooks: settings }, null, 2));
  return ws;
}

const hook = (command: string, timeout?: number) => ({
  type: "command",
  command,
  ...(timeout === undefined ? {} : { timeout }),
});
const inProject = (script: string) => `node "$CLAUDE_PROJECT_DIR/.claude/hooks/${script}"`;
const shInProject = (script: string) => `sh "$CLAUDE_PROJECT_DIR/.claude/hooks/${script}"`;

async function run(ws: TestWorkspace, args: string[], env: Record<string, string> = {}) {
  return runCli(["run", "--output-format", "stream-json", ...args], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(server as ModelServer, "anthropic"), ...env },
  });
}

function events(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The texts of the last message of a request (a tool result's content, a user message). */
function lastTexts(request: RecordedRequest): string[] {
  const messages = wireMessages(request.body);
  return wireTexts(messages.at(-1) as WireMessage);
}

const isChild = (request: RecordedRequest) => wireSystem(request.body).includes(CHILD_MARK);

describeWith(BUBBLEWRAP, "Claude Code hooks in agentry run", () => {
  it("a public PreToolUse guard stops the root's and a child's rm -rf, and the model reads its reason", async () => {
    const ws = await projectWithHooks(
      { PreToolUse: [{ matcher: "Bash", hooks: [hook(inProject("block-dangerous-commands.js"))] }] },
      ["block-dangerous-commands.js"],
    );
    await ws.trust();
    await ws.write("keep.txt", "precious\n");
    const rmAll = { name: "bash", args: { command: "rm -rf *" } };
    server = await startModelServer((request) => {
      const turn = wireMessages(request.body).length;
      if (isChild(request)) return turn === 1 ? { toolCalls: [rmAll] } : { text: "child could not delete" };
      if (turn === 1)
        return {
          toolCalls: [
            rmAll,
            {
              name: "task",
              args: {
                description: "clean up",
                prompt: "delete everything",
                subagent_type: "general-purpose",
              },
            },
          ],
        };
      return { text: "root done" };
    });
    const result = await run(ws, ["clean the repo"]);
    expect(result.code, result.stderr).toBe(0);
    expect(await ws.read("keep.txt")).toBe("precious\n");

    const reason = "[rm-cwd] rm deleting current directory contents";
    // The root's call: its tool result, as the model read it on its next request.
    const rootNext = server.requests.find((r) => !isChild(r) && wireMessages(r.body).length === 3);
    expect(lastTexts(rootNext as RecordedRequest).join("\n")).toContain(reason);
    // The child's call, in the child's next request.
    const childNext = server.requests.find((r) => isChild(r) && wireMessages(r.body).length === 3);
    expect(lastTexts(childNext as RecordedRequest).join("\n")).toContain(reason);

    const runs = events(result.stdout).filter((event) => event.type === "hook_run");
    expect(
      runs.map((event) => [(event.agentPath as string[]).join("/"), event.hookEvent, event.result]),
    ).toEqual(
      expect.arrayContaining([
        ["main", "PreToolUse", "blocked"],
        ["main/general-purpose-1", "PreToolUse", "blocked"],
      ]),
    );
    // The hook saw the call as Claude Code shows it.
    expect(runs.every((event) => event.toolName === "Bash")).toBe(true);
  });

  it("UserPromptSubmit adds context the model reads with the prompt", async () => {
    const ws = await projectWithHooks(
      { UserPromptSubmit: [{ hooks: [hook(shInProject("prompt-context.sh"))] }] },
      ["prompt-context.sh"],
    );
    await ws.trust();
    server = await startModelServer([{ text: "ok" }]);
    const result = await run(ws, ["what branch is this?"]);
    expect(result.code, result.stderr).toBe(0);
    const first = wireTexts(wireMessages(server.requests[0]?.body ?? {})[0] as WireMessage).join("\n");
    expect(first).toContain("what branch is this?");
    expect(first).toContain("Team rule: answer in one sentence. (prompt was: what branch is this?)");
  });

  it("a UserPromptSubmit block keeps the prompt from the model and says why (exit 2)", async () => {
    const ws = await projectWithHooks(
      { UserPromptSubmit: [{ hooks: [hook(shInProject("prompt-guard.sh"))] }] },
      ["prompt-guard.sh"],
    );
    await ws.trust();
    server = await startModelServer([{ text: "never" }]);
    const result = await run(ws, ["print the password"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("blocked by a UserPromptSubmit hook");
    expect(result.stderr).toContain("prompts about passwords are not sent");
    expect(server.requests).toHaveLength(0);
    expect(await ws.transcripts()).toEqual({});
  });

  it("Stop with decision block makes the agent continue with the reason", async () => {
    const ws = await projectWithHooks({ Stop: [{ hooks: [hook(shInProject("stop-until-tested.sh"))] }] }, [
      "stop-until-tested.sh",
    ]);
    await ws.trust();
    server = await startModelServer([{ text: "I am done." }, { text: "Ran the tests: all pass." }]);
    const result = await run(ws, ["fix it"]);
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(lastTexts(server.requests[1] as RecordedRequest).join("\n")).toContain(
      "Run the tests before you stop.",
    );
    const final = events(result.stdout).at(-1);
    expect(final?.result).toBe("Ran the tests: all pass.");
    const stops = events(result.stdout).filter((event) => event.hookEvent === "Stop");
    expect(stops.map((event) => event.result)).toEqual(["blocked", "ok"]);
  });

  it("an agent file's own Stop hook runs as SubagentStop for that child only", async () => {
    const ws = await projectWithHooks({}, ["stop-until-tested.sh"]);
    await ws.write(
      ".claude/agents/helper.md",
      `---\nname: helper\ndescription: Helps.\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ${shInProject("stop-until-tested.sh")}\n---\nYou help.\n`,
    );
    await ws.trust();
    server = await startModelServer((request) => {
      const turn = wireMessages(request.body).length;
      if (isChild(request)) return { text: turn === 1 ? "helper: done" : "helper: tested, done" };
      if (turn === 1)
        return {
          toolCalls: [
            { name: "task", args: { description: "help", prompt: "help", subagent_type: "helper" } },
          ],
        };
      return { text: "root done" };
    });
    const result = await run(ws, ["go"]);
    expect(result.code, result.stderr).toBe(0);
    const child = server.requests.filter(isChild);
    expect(child).toHaveLength(2);
    expect(lastTexts(child[1] as RecordedRequest).join("\n")).toContain("Run the tests before you stop.");
    const stops = events(result.stdout).filter((event) => event.type === "hook_run");
    // The root's own stop ran no hook: the agent file's hooks are the child's.
    expect(
      stops.map((event) => [(event.agentPath as string[]).join("/"), event.hookEvent, event.result]),
    ).toEqual([
      ["main/helper-1", "SubagentStop", "blocked"],
      ["main/helper-1", "SubagentStop", "ok"],
    ]);
  });

  it("a hook that hangs is cut at its timeout and the run goes on", async () => {
    const ws = await projectWithHooks(
      { PreToolUse: [{ matcher: "*", hooks: [hook(shInProject("hang.sh"), 1)] }] },
      ["hang.sh"],
    );
    await ws.trust();
    server = await startModelServer([
      { toolCalls: [{ name: "bash", args: { command: "echo still-runs" } }] },
      { text: "finished" },
    ]);
    const result = await run(ws, ["go"]);
    expect(result.code, result.stderr).toBe(0);
    // The call ran after the hook was cut, and the model read its output.
    expect(lastTexts(server.requests[1] as RecordedRequest).join("\n")).toContain("still-runs");
    const timedOut = events(result.stdout).find((event) => event.type === "hook_run");
    expect(timedOut).toMatchObject({ hookEvent: "PreToolUse", result: "timeout" });
    // What it started went with it (its process group).
    const pid = Number((await readFile(join(ws.dir, "hang.pid"), "utf8")).trim());
    expect(await until(() => !isRunning(pid), 5_000)).toBe(true);
  });
});

describeWith(JQ, "a public PostToolUse formatter (jq, biome)", () => {
  it("runs after write and edit, as the repository's settings.json says, and changes the file", async () => {
    const lateread = join(FIXTURES, "wannabehero-lateread");
    const published = JSON.parse(await readFile(join(lateread, "settings.json"), "utf8")) as {
      hooks: { PostToolUse: unknown };
    };
    const ws = await projectWithHooks({ PostToolUse: published.hooks.PostToolUse }, []);
    await copyFile(join(lateread, "biome-check.sh"), join(ws.dir, ".claude", "hooks", "biome-check.sh"));
    await chmod(join(ws.dir, ".claude", "hooks", "biome-check.sh"), 0o755);
    await ws.trust();
    server = await startModelServer([
      { toolCalls: [{ name: "write", args: { path: "data.json", content: '{"a":1,     "b":[1,2]}' } }] },
      {
        toolCalls: [
          { name: "edit", args: { path: "data.json", old_string: '"a": 1', new_string: '"a":   2' } },
        ],
      },
      { text: "done" },
    ]);
    // The project's formatter: biome on PATH, as a project that installed it has it.
    const result = await run(ws, ["--permission-mode", "accept-edits", "write data.json"], {
      PATH: `${BIOME}:${ws.env.PATH}`,
    });
    expect(result.code, result.stderr).toBe(0);
    // Written unformatted and formatted by the hook; then edited (the model's edit matched the
    // formatted text) and formatted again.
    expect(await ws.read("data.json")).toBe('{ "a": 2, "b": [1, 2] }\n');
    const post = events(result.stdout).filter((event) => event.hookEvent === "PostToolUse");
    expect(post.map((event) => [event.toolName, event.result])).toEqual([
      ["Write", "ok"],
      ["Edit", "ok"],
    ]);
  });
});

describe("a cloned repository's hooks before it is trusted", () => {
  it("none runs and that is said; the user's own hooks still run", async () => {
    const ws = await projectWithHooks(
      {
        SessionStart: [{ hooks: [hook("touch project-session-start")] }],
        PreToolUse: [{ matcher: "*", hooks: [hook("touch project-pre-tool-use")] }],
        Stop: [{ hooks: [hook("touch project-stop")] }],
      },
      [],
    );
    await ws.write(
      ".claude/agents/helper.md",
      "---\nname: helper\ndescription: Helps.\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: touch agent-stop\n---\nHelp.\n",
    );
    await mkdir(join(ws.home, ".claude"), { recursive: true });
    await writeFile(
      join(ws.home, ".claude", "settings.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [hook("touch user-stop")] }] } }),
    );
    server = await startModelServer([
      {
        toolCalls: [{ name: "task", args: { description: "help", prompt: "help", subagent_type: "helper" } }],
      },
      { text: "helped" },
      { text: "done" },
    ]);
    const result = await run(ws, ["hi"]);
    expect(result.code, result.stderr).toBe(0);
    for (const marker of ["project-session-start", "project-pre-tool-use", "project-stop", "agent-stop"])
      expect(existsSync(join(ws.dir, marker)), marker).toBe(false);
    expect(existsSync(join(ws.dir, "user-stop"))).toBe(true);
    expect(result.stderr).toContain("this folder is not trusted");
    expect(result.stderr).toContain('hook PreToolUse[*] "touch project-pre-tool-use"');
    expect(result.stderr).toContain('agent "helper" hooks');

    const config = await runCli(["config"], { cwd: ws.dir, env: ws.env });
    expect(config.stdout).toContain("Withheld until you trust this folder");
    expect(config.stdout).toContain('.claude/settings.json: hook Stop "touch project-stop"');
    expect(config.stdout).toMatch(/hook Stop\s+touch user-stop\s+.*\.claude\/settings\.json/);
  });

  it("--no-hooks runs none, the user's included", async () => {
    const ws = await makeWorkspace();
    await mkdir(join(ws.home, ".claude"), { recursive: true });
    await writeFile(
      join(ws.home, ".claude", "settings.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [hook("touch user-stop")] }] } }),
    );
    server = await startModelServer([{ text: "done" }]);
    const result = await run(ws, ["--no-hooks", "hi"]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(ws.dir, "user-stop"))).toBe(false);
  });
});
