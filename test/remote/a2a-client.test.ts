import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/contracts/events.ts";
import { userText } from "../../src/model/messages.ts";
import type { ActivationRef, ChildExecutor } from "../../src/subagents/run/executor.ts";
import type { A2aStep } from "../support/a2a-agent-script.ts";
import { remoteExecutor } from "../support/a2a-client.ts";
import { startA2aServer, type TestA2aServer } from "../support/a2a-server.ts";
import { startA2aServerV03 } from "../support/a2a-server-v03.ts";
import { waitFor } from "../support/processes.ts";
import { scaled } from "../support/time-scale.ts";

/**
 * agentry's A2A client (the remote child's executor) against agents built with the official SDK's
 * server classes, v1.0 (streaming or not) and v0.3: answers, follow-up messages in the same
 * conversation, INPUT_REQUIRED as the child's answer, cancel, and following a task from its ref.
 */
const servers: TestA2aServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

type Start = (script: readonly A2aStep[], options?: { streaming?: boolean }) => Promise<TestA2aServer>;
const kinds: Array<[string, Start, boolean]> = [
  ["v1.0 streaming", startA2aServer, true],
  ["v1.0 without streaming", startA2aServer, false],
  ["v0.3 streaming", startA2aServerV03, true],
  ["v0.3 without streaming", startA2aServerV03, false],
];

function run(
  executor: ChildExecutor,
  prompt: string,
  extra: { signal?: AbortSignal; events?: AgentEvent[] } = {},
) {
  return executor.start({
    prompt,
    messages: [],
    signal: extra.signal ?? new AbortController().signal,
    emit: (event) => extra.events?.push(event),
  });
}

describe.each(kinds)("A2A client against an SDK agent, %s", (_, start, streaming) => {
  it("gets the answer, keeps the conversation across activations, and asks as INPUT_REQUIRED", async () => {
    const server = await start(
      [{ reply: "hello", delayMs: 50 }, { inputRequired: "which file?" }, { reply: "thanks" }],
      {
        streaming,
      },
    );
    servers.push(server);
    const executor = remoteExecutor(server.url);
    const events: AgentEvent[] = [];

    const first = await run(executor, "hi", { events }).done;
    expect(first.outcome).toMatchObject({ status: "completed", text: "hello" });
    expect(events[0]).toMatchObject({
      type: "agent_start",
      agentPath: ["main", "far-1"],
      model: `a2a:${server.url}`,
    });
    expect(events.at(-1)).toMatchObject({ type: "agent_end", outcome: { status: "completed" } });

    const second = await run(executor, "fix it").done;
    expect(second.outcome.status).toBe("completed");
    expect(second.outcome.text).toContain("which file?");
    expect(second.outcome.text).toContain("task_send");

    const third = await run(executor, "a.ts").done;
    expect(third.outcome).toMatchObject({ status: "completed", text: "thanks" });
    const [m1, m2, m3] = server.messages;
    expect(server.messages.map((m) => m.text)).toEqual(["hi", "fix it", "a.ts"]);
    // One conversation; the answer to the question goes to the task that asked it.
    expect(new Set([m1?.contextId, m2?.contextId, m3?.contextId]).size).toBe(1);
    expect(m3?.taskId).toBe(m2?.taskId);
    expect(m3?.continued).toBe(true);
    expect(m2?.taskId).not.toBe(m1?.taskId);
  });

  it("cancels the remote task when its signal aborts, promptly", async () => {
    const server = await start([{ hang: true }], { streaming });
    servers.push(server);
    const controller = new AbortController();
    const activation = run(remoteExecutor(server.url), "a long task", { signal: controller.signal });
    await until(() => server.messages.length === 1);
    // The agent never answers: not ended by the abort, the child would hang.
    controller.abort("cancelled by its parent (task_cancel)");
    const { outcome } = await activation.done;

    expect(outcome).toMatchObject({ status: "aborted", reason: "cancelled by its parent (task_cancel)" });
    // At once when the agent had named its task, else as soon as it does (a2a-faults.test.ts).
    await until(() => server.cancelled.length > 0);
    expect(server.cancelled).toEqual([server.messages[0]?.taskId]);
  });

  it("a task the agent names only after the abort is cancelled as soon as it is named", async () => {
    let name!: () => void;
    const named = new Promise<void>((resolve) => {
      name = resolve;
    });
    const server = await start([{ hang: true, named }], { streaming });
    servers.push(server);
    const controller = new AbortController();
    const activation = run(remoteExecutor(server.url), "a long task", { signal: controller.signal });
    await until(() => server.messages.length === 1);
    // The agent has the message but has not named its task yet: the abort still ends the child at once.
    controller.abort("cancelled by its parent (task_cancel)");
    expect((await activation.done).outcome).toMatchObject({ status: "aborted" });
    name();
    await until(() => server.cancelled.length > 0);
    expect(server.cancelled).toEqual([server.messages[0]?.taskId]);
  });

  it("sends a message given while it works as the next message of the conversation", async () => {
    // Still working when the test sends its message, however slow the machine.
    const server = await start([{ reply: "working", delayMs: scaled(300) }, { reply: "read it" }], {
      streaming,
    });
    servers.push(server);
    const activation = run(remoteExecutor(server.url), "the task");
    await until(() => server.messages.length === 1);
    expect(activation.send(userText("also check the docs"))).toBe(true);
    const { outcome } = await activation.done;

    expect(outcome).toMatchObject({ status: "completed", text: "read it" });
    expect(server.messages.map((m) => m.text)).toEqual(["the task", "also check the docs"]);
    expect(activation.send(userText("too late"))).toBe(false);
  });

  it("reports a failed task as the child's error, with the agent's words", async () => {
    const server = await start([{ fail: "the disk is full" }], { streaming });
    servers.push(server);
    const { outcome } = await run(remoteExecutor(server.url), "a task").done;

    expect(outcome.status).toBe("error");
    expect(outcome.status === "error" && outcome.error).toContain(
      `the remote agent at ${server.url} failed the task`,
    );
    expect(outcome.status === "error" && outcome.error).toContain("the disk is full");
  });
});

describe("A2A client: following and headers", () => {
  it("follows a task from the ref of another executor (a restart), to the same answer", async () => {
    const server = await startA2aServer([{ reply: "done in the end", delayMs: 400 }]);
    servers.push(server);
    const refs: ActivationRef[] = [];
    const first = remoteExecutor(server.url).start({
      prompt: "a task",
      messages: [],
      signal: new AbortController().signal,
      emit: () => {},
      onRef: (ref) => refs.push(ref),
    });
    await until(() => refs.some((ref) => ref.kind === "a2a" && ref.taskId !== undefined));
    const ref = refs.at(-1)!;
    expect(ref).toMatchObject({ kind: "a2a", url: server.url, taskId: server.messages[0]?.taskId });
    const followed = remoteExecutor(server.url).follow!(ref, {
      signal: new AbortController().signal,
      emit: () => {},
    });
    const [original, again] = await Promise.all([first.done, followed.done]);

    expect(again.outcome).toMatchObject({ status: "completed", text: "done in the end" });
    expect(original.outcome.text).toBe("done in the end");
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VARIABLE}, as agent files write it
  it("sends its headers with ${VARIABLE}s from the environment, and a missing one is a clear error", async () => {
    const server = await startA2aServer([{ reply: "ok" }], { token: "s3cret" });
    servers.push(server);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VARIABLE}, as agent files write it
    const headers = { Authorization: "Bearer ${FAR_TOKEN}" };
    const ok = await run(remoteExecutor(server.url, { headers, env: { FAR_TOKEN: "s3cret" } }), "hi").done;
    expect(ok.outcome).toMatchObject({ status: "completed", text: "ok" });
    expect(server.calls.every((call) => call.headers.authorization === "Bearer s3cret")).toBe(true);

    const missing = await run(remoteExecutor(server.url, { headers }), "hi").done;
    expect(missing.outcome.status).toBe("error");
    expect(missing.outcome.status === "error" && missing.outcome.error).toContain("FAR_TOKEN is not set");
  });
});

function until(condition: () => boolean): Promise<void> {
  return waitFor(condition, 5_000);
}
