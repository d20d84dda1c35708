import type { ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import {
  serverModel,
  tempWorkspace,
  wireMessages,
  wireTexts,
} from "../subagents/support/subagent-harness.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import { waitFor } from "../support/processes.ts";
import { journalledResults, killRunProcess, startRunProcess } from "./support/run-process.ts";
import { runWorkflow, workflowOptions } from "./support/workflow-harness.ts";

let server: ModelServer | undefined;
let first: ChildProcess | undefined;
afterEach(async () => {
  await killRunProcess(first);
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

  const started = await startRunProcess(ws, server.anthropicBaseUrl, scriptFile);
  first = started.child;
  const { runId, journal } = started;
  // Killed once P1 and P3 are in the journal and P2 is waiting for its reply.
  await waitFor(async () => (await journalledResults(journal)) >= 2, 10_000, "P1 and P3 in the journal");
  expect(await journalledResults(journal)).toBe(2);
  await killRunProcess(first);
  const record = await new WorkspaceTaskStore({ workspace: ws }).get(runId);
  expect(record).toMatchObject({ agentType: "workflow", status: "RUNNING" });

  // Resume: only P2 (never finished) and LAST reach the model.
  hang = false;
  const before = server.requests.length;
  const { options } = workflowOptions(ws, serverModel(server));
  const resumed = await runWorkflow({ ...options, script: SCRIPT, resume: runId });
  expect(resumed).toMatchObject({
    status: "completed",
    result: ["done P1", "done P2", "done P3", "done LAST"],
  });
  expect(server.requests.slice(before).map(promptOf)).toEqual(["P2", "LAST after done P1 done P2 done P3"]);
  expect(resumed.agents).toEqual({ run: 2, replayed: 2, failed: 0 });

  // Edit P2: it and the call after the parallel run again; P1 and P3, its siblings, are replayed.
  const edited = SCRIPT.replace('agent("P2")', 'agent("P2 again")');
  const beforeEdit = server.requests.length;
  const rerun = await runWorkflow({ ...options, script: edited, resume: runId });
  expect(rerun.status).toBe("completed");
  expect(server.requests.slice(beforeEdit).map(promptOf)).toEqual([
    "P2 again",
    "LAST after done P1 done P2 done P3",
  ]);
  expect(rerun.agents).toEqual({ run: 2, replayed: 2, failed: 0 });
  expect(await new WorkspaceTaskStore({ workspace: ws }).get(runId)).toMatchObject({ status: "COMPLETED" });
});
