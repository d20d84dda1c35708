import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { wireMessages, wireTexts } from "../../subagents/support/subagent-harness.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { waitFor } from "../../support/processes.ts";
import { finished, makeWorkspace, runCli, spawnCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

// A process killed while a tool runs leaves a transcript whose last assistant message has tool calls
// without results. Every way of continuing such a session — `run --resume`, `chat --resume`, and a
// subagent continued by its task_id — must close those calls before the new prompt, or the real APIs
// answer 400 (the test server checks the pairing as they do, and the tests read the status it
// answered: stderr may hold "400" anyway, as a turn of 400 ms).

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  server = undefined;
  ws = undefined;
});

const lastText = (request: RecordedRequest) => wireMessages(request.body).flatMap(wireTexts).at(-1) ?? "";
/** Still running when the test kills the run, however slowly the test sees its tool call. */
const SLOW_TOOL = { name: "bash", args: { command: "sleep 30" } };

/** Runs `agentry run` until a transcript holds an assistant line with a tool call, then kills it hard. */
async function crashWhileToolRuns(dir: string, env: Record<string, string>, file: RegExp): Promise<string> {
  const child = spawnCli(["run", "--permission-mode", "bypass", "start"], { cwd: dir, env });
  const exit = finished(child);
  const sessions = join(dir, ".agentry", "sessions");
  let path = "";
  await waitFor(() => {
    const names = (() => {
      try {
        return readdirSync(sessions);
      } catch {
        return [];
      }
    })();
    const name = names.find((n) => file.test(n));
    if (!name) return false;
    path = join(sessions, name);
    return readFileSync(path, "utf8").includes('"type":"tool_call"');
  }, 20_000);
  child.kill("SIGKILL");
  await exit;
  return path;
}

function sessionIdOf(path: string): string {
  return (
    path
      .split("/")
      .at(-1)
      ?.replace(/\.jsonl$/, "") ?? ""
  );
}

describe("resuming after a crash closes the dangling tool calls on every path", () => {
  it("run --resume", async () => {
    ws = await makeWorkspace();
    server = await startModelServer((request) =>
      lastText(request) === "start" ? { toolCalls: [SLOW_TOOL] } : { text: "picked up again" },
    );
    const env = { ...ws.env, ...providerEnv(server, "anthropic") };
    const id = sessionIdOf(await crashWhileToolRuns(ws.dir, env, /^\d.*\.jsonl$/));

    const resumed = await runCli(["run", "--resume", id, "go on"], { cwd: ws.dir, env });

    expect(server.requests.map((request) => request.status)).not.toContain(400);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("picked up again");
    const texts = wireMessages(server.requests.at(-1)?.body ?? {}).flatMap(wireTexts);
    expect(texts.join("\n")).toContain("interrupted: the process stopped before this tool finished.");
  });

  it("chat --resume", async () => {
    ws = await makeWorkspace();
    server = await startModelServer((request) =>
      lastText(request) === "start" ? { toolCalls: [SLOW_TOOL] } : { text: "picked up again" },
    );
    const env = { ...ws.env, ...providerEnv(server, "anthropic") };
    const id = sessionIdOf(await crashWhileToolRuns(ws.dir, env, /^\d.*\.jsonl$/));

    const chat = await runCli(["chat", "--resume", id], { cwd: ws.dir, env, input: "go on\n" });

    expect(server.requests.map((request) => request.status)).not.toContain(400);
    expect(chat.code).toBe(0);
    expect(chat.stdout + chat.stderr).toContain("picked up again");
  });

  it("a subagent continued by its task_id", async () => {
    ws = await makeWorkspace();
    let taskId = "";
    let continued = false;
    server = await startModelServer((request) => {
      const last = lastText(request);
      if (last === "start")
        return { toolCalls: [{ name: "task", args: { description: "Slow child", prompt: "CHILD" } }] };
      if (last === "CHILD") return { toolCalls: [SLOW_TOOL] };
      // The resumed root also gets the notification that its child was orphaned, after "go on".
      const texts = wireMessages(request.body).flatMap(wireTexts);
      if (!continued && texts.includes("go on")) {
        continued = true;
        return {
          toolCalls: [{ name: "task", args: { description: "Again", prompt: "finish it", task_id: taskId } }],
        };
      }
      if (last === "finish it") return { text: "child finished" };
      return { text: `root saw: ${last}` };
    });
    const env = { ...ws.env, ...providerEnv(server, "anthropic") };
    const childPath = await crashWhileToolRuns(ws.dir, env, /^sub-.*\.jsonl$/);
    taskId = sessionIdOf(childPath);
    const sessions = readdirSync(join(ws.dir, ".agentry", "sessions"));
    const rootId = sessionIdOf(sessions.find((n) => /^\d/.test(n)) ?? "");

    const resumed = await runCli(["run", "--permission-mode", "bypass", "--resume", rootId, "go on"], {
      cwd: ws.dir,
      env,
    });

    expect(server.requests.map((request) => request.status)).not.toContain(400);
    expect(resumed.code).toBe(0);
    const childRequest = server.requests.find((r) => lastText(r) === "finish it");
    expect(childRequest).toBeDefined();
    expect(
      wireMessages(childRequest?.body ?? {})
        .flatMap(wireTexts)
        .join("\n"),
    ).toContain("interrupted");
    expect(resumed.stdout).toContain("child finished");
  });
});
