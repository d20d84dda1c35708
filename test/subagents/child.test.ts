import { describe, expect, it } from "vitest";
import { builtinAgents } from "../../src/agents/builtin-agents.ts";
import type { Outcome } from "../../src/contracts/outcome.ts";
import { errorKind } from "../../src/errors/agentry-error.ts";
import { emptyUsage, type UserMessage, userText } from "../../src/model/messages.ts";
import { Child, type ChildIdentity } from "../../src/subagents/child/child.ts";
import { IllegalChildTransitionError } from "../../src/subagents/child/child-state.ts";
import type { ChildRunReport } from "../../src/subagents/report/child-run-report.ts";
import type { Activation, ActivationResult, ChildExecutor } from "../../src/subagents/run/executor.ts";
import type { TaskStore } from "../../src/tasks/task-store.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { tempDir } from "../support/temp-dir.ts";

const OWNER = "test-host:42";
const explore = builtinAgents().find((agent) => agent.name === "explore")!;

const identity = (taskId: string): ChildIdentity => ({
  taskId,
  definition: explore,
  description: "Find the parser",
  parentSessionId: "20250101-000000-parent",
  parentAgentId: "main",
  agentPath: ["main", "explore-1"],
  sessionId: taskId,
  model: "scripted:model",
  maxTurns: 30,
});

const outcome = (text: string): Outcome => ({
  status: "completed",
  text,
  turns: 1,
  usage: { ...emptyUsage(), input: 10, output: 5 },
  durationMs: 3,
  sessionId: "s",
});

const report = (taskId: string, end: Outcome): ChildRunReport => ({
  taskId,
  agentType: "explore",
  model: "scripted:model",
  outcome: end,
  maxTurns: 30,
});

/** An executor that records what it is handed; the test ends each activation itself. */
function manualExecutor() {
  const sent: UserMessage[] = [];
  const started: UserMessage[][] = [];
  let interrupts = 0;
  const executor: ChildExecutor = {
    kind: "manual",
    start(input) {
      started.push([...input.messages]);
      const activation: Activation = {
        done: new Promise<ActivationResult>(() => {}),
        send: (message) => {
          sent.push(message);
          return true;
        },
        interrupt: () => {
          interrupts++;
        },
      };
      return activation;
    },
  };
  return { executor, sent, started, interrupts: () => interrupts };
}

async function setup(options: { store?: (real: TaskStore) => TaskStore } = {}) {
  const real = new WorkspaceTaskStore({ workspace: await tempDir("agentry-child-") });
  const store = options.store?.(real) ?? real;
  const warnings: string[] = [];
  const records = { store, owner: OWNER, warn: (message: string) => warnings.push(message) };
  const manual = manualExecutor();
  const create = (taskId: string, opts = { background: false, running: false }) =>
    Child.create(identity(taskId), manual.executor, records, opts);
  return { store: real, records, warnings, manual, create };
}

/** Counts the store's writes (the store itself is real). */
function countingWrites(counts: { updates: number }) {
  return (real: TaskStore): TaskStore => ({
    create: (record) => real.create(record),
    get: (id) => real.get(id),
    list: (query) => real.list(query),
    requestCancel: (id) => real.requestCancel(id),
    heartbeat: (ids) => real.heartbeat(ids),
    markDelivered: (ids) => real.markDelivered(ids),
    sendMessage: (id, message) => real.sendMessage(id, message),
    update: (id, patch, options) => {
      counts.updates++;
      return real.update(id, patch, options);
    },
  });
}

/** Runs `child` through start → end → recorded with `text`. */
async function finish(child: Child, text: string) {
  await child.start();
  child.attach((messages) => ({
    done: new Promise(() => {}),
    send: () => true,
    interrupt: () => {},
    ...{ messages },
  }));
  child.end(outcome(text));
  await child.record(report(child.taskId, outcome(text)));
}

describe("a Child's transitions, each persisted through the TaskStore", () => {
  it("create: queued, its record PENDING and owned here; or RUNNING when a slot is held already", async () => {
    const { store, create } = await setup();
    const waiting = await create("sub-a");
    const running = await create("sub-b", { background: true, running: true });

    expect(waiting.state).toEqual({ status: "queued", attached: true });
    expect(running.state).toEqual({ status: "queued", attached: false });
    expect(await store.get("sub-a")).toMatchObject({ status: "PENDING", owner: OWNER, background: false });
    expect(await store.get("sub-b")).toMatchObject({
      status: "RUNNING",
      background: true,
      agentPath: ["main", "explore-1"],
      model: "scripted:model",
      childSessionId: "sub-b",
    });
  });

  it("start: running, its record RUNNING — written once when it was created RUNNING", async () => {
    const counts = { updates: 0 };
    const { store, create } = await setup({ store: countingWrites(counts) });
    const queued = await create("sub-a");
    await queued.start();
    expect(queued.state).toEqual({ status: "running", attached: true });
    expect(await store.get("sub-a")).toMatchObject({ status: "RUNNING" });
    expect(counts.updates).toBe(1);

    const slotted = await create("sub-b", { background: false, running: true });
    await slotted.start();
    expect(slotted.state.status).toBe("running");
    expect(counts.updates).toBe(1);
  });

  it("send: queued, messages wait for its activation; running, they go to it; interrupt reaches it", async () => {
    const { create, manual } = await setup();
    const child = await create("sub-a");
    expect(child.send(userText("before it started"))).toBe(true);
    await child.start();
    child.attach((messages) =>
      manual.executor.start({ messages, signal: child.cancelSignal, emit: () => {} }),
    );
    expect(manual.started).toEqual([[userText("before it started")]]);
    expect(child.send(userText("while it runs"))).toBe(true);
    child.interrupt();

    expect(manual.sent).toEqual([userText("while it runs")]);
    expect(manual.interrupts()).toBe(1);
  });

  it("cancel: aborts its signal, with the reason; the status stays until it ends", async () => {
    const { create } = await setup();
    const child = await create("sub-a");
    child.cancel("cancelled by its parent (task_cancel)");

    expect(child.cancelSignal.aborted).toBe(true);
    expect(child.cancelSignal.reason).toBe("cancelled by its parent (task_cancel)");
    expect(child.state.status).toBe("queued");
  });

  it("detach: a waiting caller gives up; its record is promoted to the background", async () => {
    const { store, create } = await setup();
    const child = await create("sub-a");
    await child.start();

    expect(await child.detach()).toBe(true);
    expect(child.state).toEqual({ status: "running", attached: false });
    expect(child.background).toBe(true);
    expect(await store.get("sub-a")).toMatchObject({ background: true });
    expect(await child.detach()).toBe(false);
  });

  it("end and record: finishing, then finished with its outcome; delivered when a caller took it", async () => {
    const { store, create } = await setup();
    const sync = await create("sub-a");
    const background = await create("sub-b", { background: true, running: false });
    let settled = false;
    void sync.settled().then(() => {
      settled = true;
    });
    await finish(sync, "the parser is in src/parse.ts");
    await finish(background, "found it too");

    expect(settled).toBe(true);
    expect(sync.state).toEqual({
      status: "finished",
      outcome: outcome("the parser is in src/parse.ts"),
      delivered: true,
    });
    expect(await store.get("sub-a")).toMatchObject({
      status: "COMPLETED",
      result: "the parser is in src/parse.ts",
      usage: { input: 10, output: 5 },
      deliveredAt: expect.any(String),
    });
    const notified = await store.get("sub-b");
    expect(notified).toMatchObject({ status: "COMPLETED", result: "found it too" });
    expect(notified?.deliveredAt).toBeUndefined();
    expect(await sync.detach()).toBe(false);
  });

  it("continue: a finished or restored child is queued again, its record reopened PENDING", async () => {
    const { store, records, create, manual } = await setup();
    const child = await create("sub-a");
    await finish(child, "first");
    await child.continue(true);

    expect(child.state).toEqual({ status: "queued", attached: false });
    expect(child.background).toBe(true);
    expect(await store.get("sub-a")).toMatchObject({ status: "PENDING", background: true, owner: OWNER });
    expect(child.cancelSignal.aborted).toBe(false);

    const restored = Child.restored(identity("sub-a"), manual.executor, records, false);
    expect(restored.state).toEqual({ status: "idle" });
    expect(restored.active).toBe(false);
  });

  it("refuses every transition its state does not allow, and changes nothing", async () => {
    const { create, manual, records } = await setup();
    const idle = Child.restored(identity("sub-i"), manual.executor, records, false);
    const queued = await create("sub-q");
    const running = await create("sub-r");
    await running.start();
    const finished = await create("sub-f");
    await finish(finished, "done");

    const refused = [
      () => idle.start(),
      () => idle.cancel("x"),
      () => idle.interrupt(),
      () => idle.end(outcome("x")),
      () => idle.record(report("sub-i", outcome("x"))),
      () => queued.interrupt(),
      () => queued.continue(false),
      () => queued.record(report("sub-q", outcome("x"))),
      () =>
        queued.attach(() =>
          manual.executor.start({ messages: [], signal: queued.cancelSignal, emit: () => {} }),
        ),
      () => running.start(),
      () => running.continue(false),
      () => finished.start(),
      () => finished.cancel("x"),
      () => finished.end(outcome("x")),
    ];
    for (const attempt of refused)
      await expect(async () => attempt()).rejects.toThrow(IllegalChildTransitionError);
    expect([idle, queued, running, finished].map((child) => child.state.status)).toEqual([
      "idle",
      "queued",
      "running",
      "finished",
    ]);
    expect(idle.send(userText("x"))).toBe(false);
    expect(finished.send(userText("x"))).toBe(false);
  });

  it("a refused transition is reported as the runtime's fault, naming the child, the event and its state", async () => {
    const { manual, records } = await setup();
    const idle = Child.restored(identity("sub-i"), manual.executor, records, false);

    const error = await Promise.resolve()
      .then(() => idle.start())
      .catch((caught: unknown) => caught);

    expect(errorKind(error)).toBe("system");
    expect(String(error)).toBe(
      'IllegalChildTransitionError: subagent sub-i: "start" cannot happen while it is idle',
    );
  });

  it("a record the store refuses is reported; the child still settles", async () => {
    const broken = (real: TaskStore): TaskStore => ({
      create: (record) => real.create(record),
      get: (id) => real.get(id),
      list: (query) => real.list(query),
      requestCancel: (id) => real.requestCancel(id),
      heartbeat: (ids) => real.heartbeat(ids),
      markDelivered: (ids) => real.markDelivered(ids),
      sendMessage: (id, message) => real.sendMessage(id, message),
      update: () => Promise.reject(new Error("disk full")),
    });
    const { create, warnings } = await setup({ store: broken });
    const child = await create("sub-a");
    await finish(child, "done");

    expect(child.state.status).toBe("finished");
    expect(warnings).toEqual([
      "task sub-a: could not update its record: disk full",
      "task sub-a: could not record its outcome: disk full",
    ]);
  });
});
