import type { ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import {
  serverModel,
  tempWorkspace,
  wireMessages,
  wireTexts,
} from "../subagents/support/subagent-harness.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import { waitFor } from "../support/processes.ts";
import { scaled } from "../support/time-scale.ts";
import { journalledResults, killRunProcess, startRunProcess } from "./support/run-process.ts";
import { runWorkflow, workflowOptions } from "./support/workflow-harness.ts";

let server: ModelServer | undefined;
let first: ChildProcess | undefined;
afterEach(async () => {
  await killRunProcess(first);
  await server?.close();
  server = undefined;
});

const SCRIPT = `export const meta = { name: "drafts", description: "draft and check each item, then sum up" };
const checked = await pipeline(
  ["a", "b", "c", "d"],
  (item) => agent("draft " + item),
  (draft) => agent("check " + draft),
);
return [checked, await agent("sum " + checked.join(" | "))];
`;

/** A child's prompt: the first text of its first message. */
const promptOf = (request: RecordedRequest) => wireTexts(wireMessages(request.body)[0]!)[0] ?? "";

/**
 * The first process's drafts finish in reverse order (d first, a last), so the checks start d, c, b, a;
 * the gaps are scaled, so requests sent late on a loaded machine keep that order.
 */
const DRAFT_DELAY: Record<string, number> = { a: scaled(900), b: scaled(600), c: scaled(300), d: 0 };

test("a pipeline killed mid-run resumes by position: every finished (item, stage) call is replayed whatever order it finished in; an edited stage reruns only its calls and what they feed", async () => {
  const ws = await tempWorkspace();
  const scriptFile = join(ws, "drafts.js");
  await writeFile(scriptFile, SCRIPT);
  let firstProcess = true;
  server = await startModelServer((request) => {
    const prompt = promptOf(request);
    const item = /^draft (\w)$/.exec(prompt)?.[1];
    const delayMs = !firstProcess
      ? 0
      : item !== undefined
        ? DRAFT_DELAY[item]
        : prompt === "check <draft a>"
          ? 60_000
          : 0;
    return { text: `<${prompt}>`, ...(delayMs ? { delayMs } : {}) };
  });

  const started = await startRunProcess(ws, server.anthropicBaseUrl, scriptFile);
  first = started.child;
  const { runId, journal } = started;
  // Killed (SIGKILL: no clean-up) once 4 drafts and the checks of d, c and b are in the journal, while
  // the check of a waits for its reply.
  const checksAsked = () => server!.requests.map(promptOf).filter((prompt) => prompt.startsWith("check "));
  await waitFor(
    async () => (await journalledResults(journal)) >= 7 && checksAsked().length >= 4,
    15_000,
    "7 results in the journal and the 4 checks asked",
  );
  expect(await journalledResults(journal)).toBe(7);
  expect(checksAsked()).toEqual(["check <draft d>", "check <draft c>", "check <draft b>", "check <draft a>"]);
  await killRunProcess(first);

  // Resume: the 7 finished calls are replayed (the checks in an order other than the first run's), only
  // the unfinished check and the sum reach the model.
  firstProcess = false;
  const { options } = workflowOptions(ws, serverModel(server));
  const before = server.requests.length;
  const resumed = await runWorkflow({ ...options, script: SCRIPT, resume: runId });
  const checks = ["a", "b", "c", "d"].map((item) => `<check <draft ${item}>>`);
  expect(resumed).toMatchObject({ status: "completed", result: [checks, `<sum ${checks.join(" | ")}>`] });
  expect(server.requests.slice(before).map(promptOf)).toEqual([
    "check <draft a>",
    `sum ${checks.join(" | ")}`,
  ]);
  expect(resumed.agents).toEqual({ run: 2, replayed: 7, failed: 0 });

  // Edit the second stage: its four calls and the sum (which it feeds) run again; the drafts are replayed.
  const edited = SCRIPT.replace('agent("check " + draft)', 'agent("verify " + draft)');
  const beforeEdit = server.requests.length;
  const rerun = await runWorkflow({ ...options, script: edited, resume: runId });
  const verified = ["a", "b", "c", "d"].map((item) => `<verify <draft ${item}>>`);
  expect(rerun).toMatchObject({ status: "completed", result: [verified, `<sum ${verified.join(" | ")}>`] });
  expect(server.requests.slice(beforeEdit).map(promptOf).sort()).toEqual(
    [...["a", "b", "c", "d"].map((item) => `verify <draft ${item}>`), `sum ${verified.join(" | ")}`].sort(),
  );
  expect(rerun.agents).toEqual({ run: 5, replayed: 4, failed: 0 });

  // Edit the first stage of the same script: every call runs again, since each draft feeds its check
  // and the checks feed the sum.
  const beforeDraft = server.requests.length;
  const redraft = await runWorkflow({
    ...options,
    script: edited.replace('agent("draft " + item)', 'agent("outline " + item)'),
    resume: runId,
  });
  expect(redraft.status).toBe("completed");
  expect(server.requests.length - beforeDraft).toBe(9);
  expect(redraft.agents).toEqual({ run: 9, replayed: 0, failed: 0 });
});
