import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { WorkspaceTaskStore } from "../../src/tasks/workspace-task-store.ts";
import { workflowRunsDir } from "../../src/workflows/replay-journal.ts";
import {
  serverModel,
  tempWorkspace,
  wireMessages,
  wireTexts,
} from "../subagents/support/subagent-harness.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import { runWorkflow, workflowOptions } from "./support/workflow-harness.ts";

const RUN_PROCESS = fileURLToPath(new URL("./support/workflow-run-process.ts", import.meta.url));

let server: ModelServer | undefined;
let first: ChildProcess | undefined;
afterEach(async () => {
  if (first && first.exitCode === null && first.signalCode === null) {
    first.kill("SIGKILL");
    await once(first, "exit");
  }
  await server?.close();
  server = undefined;
});

const SCRIPT = `export const meta = { name: "steps", description: "fan out, then one more" };
const [x, y, z] = await parallel([() => agent("P1"), () => agent("P2"), () => agent("P3")]);
const last = await agent("LAST after " + [x, y, z].join(" "));
return [x, y, z, last];
`;

/** A child's prompt: the first text of its first message. */
const promptOf = (request: RecordedRequest) => wireTexts(wireMessages(request.body)[0]!)[0] ?? "";

test("a workflow killed mid-run resumes: finished calls are replayed without a request, the rest run; an edited call and those it may feed run again, its siblings are replayed", async () => {
  const ws = await tempWorkspace();
  const scriptFile = join(ws, "steps.js");
  await writeFile(scriptFile, SCRIPT);
  // P2 hangs in the first process; everything else answers at once.
  let hang = true;
  server = await startModelServer((request) => {
    const prompt = promptOf(request);
    return { text: `done ${prompt.split(" ")[0]}`, ...(hang && prompt === "P2" ? { delayMs: 60_000 } : {}) };
  });

  first = spawn(process.execPath, [RUN_PROCESS, ws, server.anthropicBaseUrl, scriptFile], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: first!.stdout! }).once("line", resolve),
  );
  const runId = /^run (\S+)$/.exec(line)?.[1];
  expect(runId).toBeDefined();
  // Killed once P1 and P3 are in the journal and P2 is waiting for its reply.
  const journal = join(workflowRunsDir(ws), `${runId}.jsonl`);
  for (let i = 0; i < 200 && (await results(journal)) < 2; i++) await sleep(50);
  expect(await results(journal)).toBe(2);
  first.kill("SIGKILL");
  await once(first, "exit");
  const record = await new WorkspaceTaskStore({ workspace: ws }).get(runId!);
  expect(record).toMatchObject({ agentType: "workflow", status: "RUNNING" });

  // Resume: only P2 (never finished) and LAST reach the model.
  hang = false;
  const before = server.requests.length;
  const { options } = workflowOptions(ws, serverModel(server));
  const resumed = await runWorkflow({ ...options, script: SCRIPT, resume: runId! });
  expect(resumed).toMatchObject({
    status: "completed",
    result: ["done P1", "done P2", "done P3", "done LAST"],
  });
  expect(server.requests.slice(before).map(promptOf)).toEqual(["P2", "LAST after done P1 done P2 done P3"]);
  expect(resumed.agents).toEqual({ run: 2, replayed: 2, failed: 0 });

  // Edit P2: it and the call after the parallel run again; P1 and P3, its siblings, are replayed.
  const edited = SCRIPT.replace('agent("P2")', 'agent("P2 again")');
  const beforeEdit = server.requests.length;
  const rerun = await runWorkflow({ ...options, script: edited, resume: runId! });
  expect(rerun.status).toBe("completed");
  expect(server.requests.slice(beforeEdit).map(promptOf)).toEqual([
    "P2 again",
    "LAST after done P1 done P2 done P3",
  ]);
  expect(rerun.agents).toEqual({ run: 2, replayed: 2, failed: 0 });
  expect(await new WorkspaceTaskStore({ workspace: ws }).get(runId!)).toMatchObject({ status: "COMPLETED" });
});

async function results(journal: string): Promise<number> {
  const text = await readFile(journal, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line.includes('"type":"result"')).length;
}
