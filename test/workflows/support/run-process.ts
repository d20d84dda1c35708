import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { workflowRunsDir } from "../../../src/workflows/replay-journal.ts";

const RUN_PROCESS = fileURLToPath(new URL("./workflow-run-process.ts", import.meta.url));

/** A workflow run in a process of its own (`workflow-run-process.ts`), for the tests that kill it. */
export interface RunProcess {
  child: ChildProcess;
  runId: string;
  /** Its replay journal's file. */
  journal: string;
}

/** Starts `scriptFile` in `workspace` against the model server at `baseUrl`; resolves once it named its run. */
export async function startRunProcess(
  workspace: string,
  baseUrl: string,
  scriptFile: string,
): Promise<RunProcess> {
  const child = spawn(process.execPath, [RUN_PROCESS, workspace, baseUrl, scriptFile], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).once("line", resolve),
  );
  const runId = /^run (\S+)$/.exec(line)?.[1];
  if (runId === undefined) throw new Error(`the run process said ${JSON.stringify(line)}, not its run id`);
  return { child, runId, journal: join(workflowRunsDir(workspace), `${runId}.jsonl`) };
}

/** Kills it if it still runs (SIGKILL: no clean-up), and waits for its exit. */
export async function killRunProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGKILL");
  await once(child, "exit");
}

/** How many agent results the journal holds so far. */
export async function journalledResults(journal: string): Promise<number> {
  const text = await readFile(journal, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line.includes('"type":"result"')).length;
}
