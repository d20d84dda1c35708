import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { NewTaskRecord } from "../../src/tasks/task-record.ts";
import type { TaskStore } from "../../src/tasks/task-store.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { isRunning, until } from "../support/processes.ts";
import { firstUserText, rootTree, runTree, tempWorkspace } from "./support/subagent-harness.ts";

test("aborting the parent aborts its running children and kills their bash processes", async () => {
  const ws = await tempWorkspace();
  const pidFile = join(ws, "pid.txt");
  const model = scriptedModel((request) => {
    const prompt = firstUserText(request.messages);
    if (prompt === "ROOT")
      return {
        toolCalls: [1, 2].map((n) => ({
          name: "task",
          args: { description: `Worker ${n}`, prompt: `CHILD ${n}` },
        })),
      };
    if (prompt === "CHILD 1")
      return { toolCalls: [{ name: "bash", args: { command: `echo $$ > ${pidFile}; exec sleep 30` } }] };
    return { text: "never", delayMs: 30_000 };
  });
  const { config, runtime } = rootTree({ workspace: ws, model });
  const controller = new AbortController();

  const running = runTree(config, "ROOT", { signal: controller.signal });
  expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 5_000)).toBe(
    true,
  );
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  expect(isRunning(pid)).toBe(true);
  controller.abort("user pressed Ctrl-C");

  const run = await running;
  expect(run.outcome.status).toBe("aborted");
  // The root's run ends only after its children ended and recorded it: nothing is left RUNNING.
  const ends = run.of("agent_end").map((event) => [event.agentPath.join("/"), event.outcome.status]);
  expect(ends.at(-1)).toEqual(["main", "aborted"]);
  expect(ends).toEqual(
    expect.arrayContaining([
      ["main/general-purpose-1", "aborted"],
      ["main/general-purpose-2", "aborted"],
    ]),
  );
  const records = await runtime.store.list({});
  expect(records.map((record) => record.status).sort()).toEqual(["CANCELLED", "CANCELLED"]);
  expect(await until(() => !isRunning(pid), 3_000)).toBe(true);
});

test("a parent aborted while it is still starting a child ends after that child recorded its end", async () => {
  const ws = await tempWorkspace();
  const inner = new WorkspaceTaskStore({ workspace: ws });
  let creating: () => void = () => {};
  const createStarted = new Promise<void>((resolve) => {
    creating = resolve;
  });
  // The real store, whose create takes 200 ms: the abort lands before the child exists in the runtime.
  const store: TaskStore = Object.assign(Object.create(inner) as TaskStore, {
    async create(input: NewTaskRecord) {
      creating();
      await new Promise((resolve) => setTimeout(resolve, 200));
      return inner.create(input);
    },
  });
  const model = scriptedModel((request) =>
    firstUserText(request.messages) === "ROOT"
      ? { toolCalls: [{ name: "task", args: { description: "Slow start", prompt: "CHILD" } }] }
      : { text: "never", delayMs: 30_000 },
  );
  const { config } = rootTree({ workspace: ws, model, taskStore: store });
  const controller = new AbortController();

  const running = runTree(config, "ROOT", { signal: controller.signal });
  await createStarted;
  controller.abort("user pressed Ctrl-C");
  const run = await running;

  expect(run.outcome.status).toBe("aborted");
  const records = await inner.list({});
  expect(records.map((record) => record.status)).toEqual(["CANCELLED"]);
});
