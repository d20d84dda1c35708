// A workflow run in its own process, for the kill-and-resume tests:
// node workflow-run-process.ts <workspace> <anthropic-base-url> <script-file> [<run-id to resume>]
// Prints "run <runId>" once its record exists, and "outcome <json>" at its end.
import { readFileSync } from "node:fs";
import { createModel } from "../../../src/model/registry.ts";
import { runWorkflow } from "../../../src/workflows/run-workflow.ts";
import { workflowOptions } from "./workflow-harness.ts";

const [workspace, baseUrl, scriptFile, resume] = process.argv.slice(2);
if (!workspace || !baseUrl || !scriptFile) {
  throw new Error("usage: workflow-run-process.ts <workspace> <anthropic-base-url> <script-file> [run-id]");
}
const model = createModel(
  "anthropic:claude-sonnet-4-5",
  { anthropic: { apiKey: "test-key", baseUrl }, retry: { maxRetries: 0 } },
  {},
);
const { options } = workflowOptions(workspace, model);
const outcome = await runWorkflow({
  ...options,
  script: readFileSync(scriptFile, "utf8"),
  ...(resume === undefined ? {} : { resume }),
  onStart: (runId) => process.stdout.write(`run ${runId}\n`),
});
process.stdout.write(`outcome ${JSON.stringify(outcome)}\n`);
