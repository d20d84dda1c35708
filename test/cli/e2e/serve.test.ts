import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { Role } from "@a2a-js/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { TaskRecord } from "../../../src/tasks/task-record.ts";
import { WorkspaceTaskStore } from "../../../src/tasks/workspace/workspace-task-store.ts";
import { remoteExecutor } from "../../support/a2a-client.ts";
import { sdkClientFactory } from "../../support/a2a-serve.ts";
import { startA2aServer } from "../../support/a2a-server.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { waitFor } from "../../support/processes.ts";
import { finished, makeWorkspace, runCli, spawnCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

/**
 * `agentry serve` as a process: it refuses a public address without a token, prints its agents'
 * URLs and a generated token, refuses requests without it, runs tasks into the workspace's records,
 * and another agentry delegates to it (foreground; background cancelled by `agentry tasks cancel`).
 */
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

interface Served {
  process: ChildProcess;
  ws: TestWorkspace;
  url(agent: string): string;
  token: string;
  stderr(): string;
}

async function startServe(
  model: ModelServer,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<Served> {
  const ws = await makeWorkspace();
  const child = spawnCli(["serve", "--port", "0", ...args], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(model, "anthropic"), ...env },
  });
  const exited = finished(child);
  cleanup.push(async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await waitFor(
    () => /^explore\t\S+$/m.test(stdout) && /token/.test(stderr + (env.AGENTRY_SERVE_TOKEN ?? "")),
    20_000,
    `agentry serve to start (stderr: ${stderr})`,
  );
  const urls = new Map(
    stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t") as [string, string]),
  );
  const token = env.AGENTRY_SERVE_TOKEN ?? /token .*: (\S+)$/m.exec(stderr)?.[1] ?? "";
  return { process: child, ws, url: (agent) => urls.get(agent) ?? "", token, stderr: () => stderr };
}

describe("agentry serve", () => {
  it("refuses --host 0.0.0.0 without a token, at start", async () => {
    const ws = await makeWorkspace();
    const result = await runCli(["serve", "--host", "0.0.0.0", "--port", "0"], { cwd: ws.dir, env: ws.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("refuses to listen on 0.0.0.0 without a token");
    expect(result.stderr).toContain("AGENTRY_SERVE_TOKEN");
  });

  it("serves the agents with a generated token, runs a task into the workspace's records, and stops on SIGTERM", async () => {
    const model = await startModelServer([{ text: "served answer" }]);
    cleanup.push(() => model.close());
    const served = await startServe(model);
    expect(served.url("explore")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/agents\/explore\/$/);
    expect(served.token.length).toBeGreaterThanOrEqual(16);

    const denied = await fetch(served.url("explore"), { method: "POST", body: "{}" });
    expect(denied.status).toBe(401);

    const executor = remoteExecutor(served.url("explore"), {
      headers: { Authorization: `Bearer ${served.token}` },
    });
    const { outcome } = await executor.start({
      prompt: "What is here?",
      messages: [],
      signal: new AbortController().signal,
      emit: () => {},
    }).done;
    expect(outcome).toMatchObject({ status: "completed", text: "served answer" });

    const listed = await runCli(["tasks", "list", "--json"], { cwd: served.ws.dir, env: served.ws.env });
    const [record] = JSON.parse(listed.stdout) as TaskRecord[];
    expect(record).toMatchObject({ agentType: "explore", status: "COMPLETED", result: "served answer" });
    expect(record?.ref).toMatchObject({ kind: "a2a", url: served.url("explore") });
    expect(served.stderr()).toMatch(/task \S+ \(explore, context \S+\): started/);
    expect(served.stderr()).toMatch(/task \S+ \(explore\): completed after/);
    // Only the request without a token was refused ("401" itself may be in a task id or the token).
    expect(served.stderr().match(/ refused /g)).toHaveLength(1);

    served.process.kill("SIGTERM");
    const exit = await finished(served.process);
    expect(exit.code).toBe(0);
  });
  it("the printed URLs work as they are with the official SDK client; the root card is --agent's", async () => {
    const model = await startModelServer([{ text: "answer over the SDK" }]);
    cleanup.push(() => model.close());
    const served = await startServe(model, {}, ["--agent", "explore"]);
    const factory = sdkClientFactory(served.token);
    const client = await factory.createFromUrl(served.url("explore"));
    expect((await client.getAgentCard()).name).toBe("explore");
    const task = await client.sendMessage({
      tenant: "",
      message: {
        messageId: randomUUID(),
        contextId: randomUUID(),
        taskId: "",
        role: Role.ROLE_USER,
        parts: [
          { content: { $case: "text", value: "hi" }, metadata: undefined, filename: "", mediaType: "" },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: undefined,
    });
    expect("id" in task && task.artifacts[0]?.parts[0]?.content).toEqual({
      $case: "text",
      value: "answer over the SDK",
    });
    const origin = new URL(served.url("explore")).origin;
    const root = await (await factory.createFromUrl(origin)).getAgentCard();
    expect(root.name).toBe("explore");
    expect(served.stderr()).toContain(`the card at ${origin}/.well-known/agent-card.json is explore's`);
  });

  it("refuses --agent that names no served agent (exit 2)", async () => {
    const ws = await makeWorkspace();
    const result = await runCli(["serve", "--port", "0", "--agent", "nobody"], {
      cwd: ws.dir,
      env: { ...ws.env, ANTHROPIC_API_KEY: "test-key" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--agent nobody: no such agent is served \(served: .*explore/);
  });

  it("a permission ask of a served agent never hangs: the permission mode decides it (default: denied)", async () => {
    const model = await startModelServer([
      { toolCalls: [{ name: "bash", args: { command: "touch made-by-served-agent" } }] },
      (request) => ({
        text: `bash was ${JSON.stringify(request.body).includes("denied") ? "denied" : "run"}`,
      }),
    ]);
    cleanup.push(() => model.close());
    const served = await startServe(model);
    const executor = remoteExecutor(served.url("general-purpose"), {
      headers: { Authorization: `Bearer ${served.token}` },
    });
    // An ask left to a prompt nobody answers would hang the served agent.
    const { outcome } = await executor.start({
      prompt: "Make a file.",
      messages: [],
      signal: new AbortController().signal,
      emit: () => {},
    }).done;
    expect(outcome).toMatchObject({ status: "completed", text: "bash was denied" });
    await expect(served.ws.read("made-by-served-agent")).rejects.toThrow();
  });
});

describe("agentry to agentry over A2A", () => {
  const remoteAgentFile = (url: string) =>
    `---\nname: far\ndescription: An agent on another agentry.\nurl: ${url}\nheaders:\n  Authorization: Bearer \${FAR_TOKEN}\n---\n`;

  it("a parent run delegates to agentry serve in another process, in the foreground", async () => {
    const remoteModel = await startModelServer([{ text: "the far side says 42" }]);
    cleanup.push(() => remoteModel.close());
    const token = "a-long-enough-token-0123456789";
    const served = await startServe(remoteModel, { AGENTRY_SERVE_TOKEN: token });
    const parentModel = await startModelServer([
      {
        toolCalls: [
          {
            name: "task",
            args: { description: "Ask far", prompt: "What is the answer?", subagent_type: "far" },
          },
        ],
      },
      (request) => ({
        text: `parent heard: ${JSON.stringify(request.body).includes("the far side says 42")}`,
      }),
    ]);
    cleanup.push(() => parentModel.close());
    const parent = await makeWorkspace({ ".agentry/agents/far.md": remoteAgentFile(served.url("explore")) });
    await parent.trust();

    const result = await runCli(["run", "--permission-mode", "bypass", "Delegate it"], {
      cwd: parent.dir,
      env: { ...parent.env, ...providerEnv(parentModel, "anthropic"), FAR_TOKEN: token },
    });
    expect(result.stderr).not.toContain(token);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("parent heard: true");
    const listed = await runCli(["tasks", "list", "--json"], { cwd: parent.dir, env: parent.env });
    const [record] = JSON.parse(listed.stdout) as TaskRecord[];
    expect(record).toMatchObject({
      agentType: "far",
      status: "COMPLETED",
      model: `a2a:${served.url("explore")}`,
    });
    expect(record?.ref).toMatchObject({ kind: "a2a", url: served.url("explore") });
    const table = await runCli(["tasks", "list"], { cwd: parent.dir, env: parent.env });
    expect(table.stdout).toMatch(/^TASK ID .* RUNS AT +DESCRIPTION$/m);
    expect(table.stdout).toContain(
      `remote A2A agent ${served.url("explore")}, task ${record?.ref?.kind === "a2a" ? record.ref.taskId : ""}`,
    );
    const shown = await runCli(["tasks", "show", record!.taskId], { cwd: parent.dir, env: parent.env });
    expect(shown.stdout).toMatch(
      new RegExp(`runs at: +remote A2A agent ${served.url("explore")}, task [0-9a-f-]{36}, context`),
    );
    expect(shown.stdout).not.toContain("transcript:");
  });

  it("a background remote child is cancelled from a third process (agentry tasks cancel), on both sides", async () => {
    const remoteModel = await startModelServer([{ text: "too late", delayMs: 60_000 }]);
    cleanup.push(() => remoteModel.close());
    const token = "a-long-enough-token-0123456789";
    const served = await startServe(remoteModel, { AGENTRY_SERVE_TOKEN: token });
    const parentModel = await startModelServer([
      {
        toolCalls: [
          {
            name: "task",
            args: {
              description: "Ask far",
              prompt: "Take your time",
              subagent_type: "far",
              run_in_background: true,
            },
          },
        ],
      },
      { text: "started it" },
      { text: "heard back" },
    ]);
    cleanup.push(() => parentModel.close());
    const parent = await makeWorkspace({ ".agentry/agents/far.md": remoteAgentFile(served.url("explore")) });
    await parent.trust();
    const run = spawnCli(["run", "--permission-mode", "bypass", "Delegate it"], {
      cwd: parent.dir,
      env: { ...parent.env, ...providerEnv(parentModel, "anthropic"), FAR_TOKEN: token },
    });
    const ran = finished(run);
    cleanup.push(async () => {
      if (run.exitCode === null) run.kill("SIGTERM");
      await ran;
    });

    const records = async (ws: TestWorkspace) =>
      JSON.parse(
        (await runCli(["tasks", "list", "--json"], { cwd: ws.dir, env: ws.env })).stdout,
      ) as TaskRecord[];
    let child: TaskRecord | undefined;
    await waitFor(
      async () => {
        child = (await records(parent)).find(
          (r) => r.status === "RUNNING" && r.ref?.kind === "a2a" && r.ref.taskId,
        );
        return child !== undefined && (await records(served.ws)).some((r) => r.status === "RUNNING");
      },
      20_000,
      "the remote child to run on both sides",
    );
    // The command runs, the parent's process sees the request, cancels the A2A task, and the served side
    // records it, long before the remote model's answer; the records are read directly (a CLI per poll
    // would be slow).
    const cancel = await runCli(["tasks", "cancel", child!.taskId], { cwd: parent.dir, env: parent.env });
    expect(cancel.code).toBe(0);
    const parentStore = new WorkspaceTaskStore({ workspace: parent.dir });
    const servedStore = new WorkspaceTaskStore({ workspace: served.ws.dir });
    await waitFor(
      async () =>
        (await parentStore.get(child!.taskId))?.status === "CANCELLED" &&
        (await servedStore.list()).every((r) => r.status === "CANCELLED"),
      5_000,
      "both records to be CANCELLED",
    );
    const exit = await ran;
    expect(exit.code).toBe(0);
  });

  it("a background remote child outlives a killed parent: run --resume follows it and hears its answer", async () => {
    const remote = await startA2aServer([{ reply: "the late answer", delayMs: 2_000 }]);
    cleanup.push(() => remote.close());
    // One step for every request: the first run delegates and says so; the resumed one waits for news.
    const parentModel = await startModelServer((request, call) => {
      if (call === 0)
        return {
          toolCalls: [
            {
              name: "task",
              args: {
                description: "Ask far",
                prompt: "Take your time",
                subagent_type: "far",
                run_in_background: true,
              },
            },
          ],
        };
      if (call === 1) return { text: "started it" };
      return {
        text: JSON.stringify(request.body).includes("the late answer") ? "heard the late answer" : "waiting",
      };
    });
    cleanup.push(() => parentModel.close());
    const parent = await makeWorkspace({
      ".agentry/agents/far.md": `---\nname: far\ndescription: A slow remote agent.\nurl: ${remote.url}\n---\n`,
    });
    await parent.trust();
    const env = { ...parent.env, ...providerEnv(parentModel, "anthropic") };
    const first = spawnCli(["run", "--permission-mode", "bypass", "Delegate it"], { cwd: parent.dir, env });
    const firstExit = finished(first);
    const store = new WorkspaceTaskStore({ workspace: parent.dir });
    let sessionId = "";
    await waitFor(
      async () => {
        const [record] = await store.list();
        sessionId = record?.parentSessionId ?? "";
        return record?.ref?.kind === "a2a" && record.ref.taskId !== undefined;
      },
      15_000,
      "the remote child to be named",
    );
    first.kill("SIGKILL");
    await firstExit;

    const resumed = await runCli(["run", "--permission-mode", "bypass", "--resume", sessionId, "Any news?"], {
      cwd: parent.dir,
      env,
    });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("heard the late answer");
    expect(remote.messages).toHaveLength(1);
    const [record] = await store.list();
    expect(record).toMatchObject({ status: "COMPLETED", result: "the late answer" });
  });
});
