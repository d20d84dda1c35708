import { type ChildProcess, execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import type { TaskRecord } from "../../../src/tasks/task-record.ts";
import { wireMessages, wireTexts } from "../../subagents/support/subagent-harness.ts";
import { cliBin } from "../../support/cli-bin.ts";
import { BUBBLEWRAP, describeWith } from "../../support/components.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { waitFor } from "../../support/processes.ts";
import { scaled } from "../../support/time-scale.ts";
import {
  type CliResult,
  finished,
  makeWorkspace,
  spawnCli,
  type TestWorkspace,
} from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

// A run owns its children's TaskRecords. Another process may judge them orphaned only on facts: a
// `tasks list` in another pid namespace with the same hostname (a container with host networking)
// cannot see the owner's pid, and an owner stopped with Ctrl-Z is alive however silent. When the
// verdict is right to make (silent and out of sight) but the owner comes back, it records the real
// result, and its run ends with the child's answer — never with "waiting for my subagents".

// Scaled with the heartbeat: a live owner on a loaded machine must not look silent.
const ORPHAN_TIMEOUT_MS = scaled(1_000);
const HEARTBEAT_MS = scaled(100);

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
let owner: ChildProcess | undefined;
afterEach(async () => {
  owner?.kill("SIGCONT");
  owner?.kill("SIGKILL");
  await server?.close();
  await ws?.cleanup();
  owner = undefined;
  server = undefined;
  ws = undefined;
});

const texts = (request: RecordedRequest) => wireMessages(request.body).flatMap(wireTexts);

/**
 * A root that starts one background child, says it waits, then reports. The child's command runs until
 * the test calls `finishChild`, so it is still running whenever the test looks, however slow the machine.
 */
async function startOwner(): Promise<{
  exit: Promise<CliResult>;
  env: Record<string, string>;
  finishChild: () => void;
}> {
  ws = await makeWorkspace({
    "agentry.json": JSON.stringify({
      subagents: { heartbeatMs: HEARTBEAT_MS, orphanTimeoutMs: ORPHAN_TIMEOUT_MS },
    }),
  });
  const go = join(ws.dir, "child-may-finish");
  server = await startModelServer((request) => {
    const all = texts(request);
    const last = all.at(-1) ?? "";
    if (last === "start")
      return {
        toolCalls: [
          { name: "task", args: { description: "Slow job", prompt: "CHILD", run_in_background: true } },
        ],
      };
    if (all[0] === "CHILD")
      return last === "CHILD"
        ? // It also stops once the workspace is gone, after a test that failed before finishChild.
          {
            toolCalls: [
              {
                name: "bash",
                args: { command: `while [ ! -e ${go} ] && [ -d ${ws!.dir} ]; do sleep 0.05; done` },
              },
            ],
          }
        : { text: "child result: 42" };
    if (last.includes("<task-notification>"))
      return { text: `final answer: ${/child result: 42/.test(last) ? "42" : `no result (${last})`}` };
    return { text: "Waiting for 1 subagent(s) to finish." };
  });
  const env = { ...ws.env, ...providerEnv(server, "anthropic") };
  owner = spawnCli(["run", "--permission-mode", "bypass", "start"], { cwd: ws.dir, env });
  const exit = finished(owner);
  await waitFor(() => childRunsItsTool(), 20_000);
  return { exit, env, finishChild: () => writeFileSync(go, "") };
}

function childRunsItsTool(): boolean {
  const sessions = join(ws!.dir, ".agentry", "sessions");
  const child = filesIn(sessions).find((name) => name.startsWith("sub-"));
  return (
    child !== undefined &&
    readFileSync(join(sessions, child), "utf8").includes('"type":"tool_call"') &&
    storedTask()?.status === "RUNNING"
  );
}

function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function storedTask(): TaskRecord | undefined {
  const dir = join(ws!.dir, ".agentry", "agents", "main", "tasks");
  const file = filesIn(dir).find((name) => name.endsWith(".json"));
  if (!file) return undefined;
  return (JSON.parse(readFileSync(join(dir, file), "utf8")) as { records: TaskRecord[] }).records[0];
}

/** `agentry tasks list --json` (which sweeps orphans), optionally inside a new pid namespace. */
function tasksList(env: Record<string, string>, otherNamespace: boolean): Promise<TaskRecord[]> {
  const command = [process.execPath, cliBin(), "tasks", "list", "--json", "--cwd", ws!.dir];
  const argv = otherNamespace
    ? ["bwrap", "--dev-bind", "/", "/", "--unshare-pid", "--die-with-parent", "--proc", "/proc", ...command]
    : command;
  return new Promise((resolve, reject) => {
    execFile(argv[0] as string, argv.slice(1), { env, timeout: scaled(20_000) }, (error, stdout, stderr) => {
      if (error) reject(new Error(`tasks list failed: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout) as TaskRecord[]);
    });
  });
}

describe("task ownership across pid namespaces and paused owners", () => {
  it("an owner stopped longer than the orphan timeout (Ctrl-Z) keeps its child; resumed, it finishes", async () => {
    const { exit, env, finishChild } = await startOwner();
    owner!.kill("SIGSTOP");
    await sleep(ORPHAN_TIMEOUT_MS * 1.5);
    const [seen] = await tasksList(env, false);
    expect(seen).toMatchObject({ status: "RUNNING" });
    finishChild();
    owner!.kill("SIGCONT");

    const result = await exit;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("final answer: 42");
    expect(storedTask()).toMatchObject({ status: "COMPLETED", result: "child result: 42" });
  });

  describeWith(BUBBLEWRAP, "seen from another pid namespace", () => {
    it("a live, heartbeating owner is not orphaned by a tasks list that cannot see its pid", async () => {
      const { exit, env, finishChild } = await startOwner();
      const [seen] = await tasksList(env, true);
      expect(seen).toMatchObject({ status: "RUNNING" });
      finishChild();

      const result = await exit;
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("final answer: 42");
      expect(storedTask()).toMatchObject({ status: "COMPLETED" });
    });

    it("a silent owner out of sight is orphaned, and when it comes back it records the real result and answers with it", async () => {
      const { exit, env, finishChild } = await startOwner();
      owner!.kill("SIGSTOP");
      await sleep(ORPHAN_TIMEOUT_MS * 1.5);
      const [seen] = await tasksList(env, true);
      expect(seen).toMatchObject({ status: "FAILED", reason: "orphaned" });
      finishChild();
      owner!.kill("SIGCONT");

      const result = await exit;
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("final answer: 42");
      expect(result.stdout).not.toContain("Waiting for");
      expect(storedTask()).toMatchObject({ status: "COMPLETED", result: "child result: 42" });
    });
  });
});
