import { type Command, Option } from "commander";
import { queueOption, storeOption } from "../../fleet-flags.ts";
import { OUTPUT_FORMATS } from "../../render/renderer.ts";
import { type CommandDeps, lazyAction } from "../command-deps.ts";
import {
  cwdOption,
  jsonOption,
  maxConcurrencyOption,
  mcpConfigOption,
  permissionModeOption,
  positiveInteger,
  positiveNumber,
  trustProjectOption,
} from "../options.ts";

const WORKFLOW_HELP = `
A workflow is a script that runs many subagents deterministically: agent(prompt, {label,
phase, schema}) starts one and returns its answer (validated against the JSON Schema, with
one corrective turn), parallel([...]) and pipeline(items, stage, …) fan out, phase(title)
groups the live tree, args is the input, and what the script returns is the result. The
script runs in a sandbox that reaches nothing else (docs/workflows.md). Every agent is a
subagent with the usual permissions, OS sandbox and limits.

Saved workflows: .agentry/workflows/<name>.js and Claude Code's .claude/workflows/<name>.js
(in the project, then in your home), run by name.

Examples:
  $ agentry workflow run review.js --args '{"areas": ["api", "cli"]}'
  $ agentry workflow run review --dry-run               # phases and agent count, no tokens spent
  $ agentry workflow run review --max-agents 40 --max-cost 5
  $ agentry workflow run --resume wf-20250114-093012-k3f9qa    # replays the finished agent calls
  $ agentry workflow run review --store redis://fleet:6379/0 --queue agentry   # agents on workers
  $ agentry workflow run review.js --resume wf-20250114-093012-k3f9qa   # after editing the script
  $ agentry tasks list                                   # runs are tasks: show, cancel them there

Exit codes: 0 completed, 1 the script or an agent failed, 2 usage error, 4 budget exceeded,
130 interrupted or cancelled.
`;

/** Adds `agentry workflow run|list`; the runtime and the sandbox load only when one runs. */
export function registerWorkflowCommand(program: Command, deps: CommandDeps): Command {
  const workflow = program
    .command("workflow")
    .summary("run scripts that orchestrate subagents")
    .description("Run a workflow script (a file, or a saved workflow by name) with no model in the loop.")
    .addHelpText("after", WORKFLOW_HELP);
  workflow
    .command("run")
    .summary("run a workflow script to its end")
    .description(
      "Run a workflow to its end: the live tree shows its agents by phase on stderr, its result goes to stdout.",
    )
    .argument("[workflow]", "a script file, or the name of a saved workflow (optional with --resume)")
    .addOption(new Option("--args <json>", "the script's args, as JSON"))
    .addOption(
      new Option(
        "--resume <run-id>",
        "continue a run: its finished agent calls are replayed without a model call; from the first edited call on, the rest run",
      ),
    )
    .addOption(new Option("--dry-run", "print the plan (phases, estimated agent count) and spend nothing"))
    .addOption(new Option("-m, --model <id>", "the agents' model when their definition names none"))
    .addOption(
      new Option(
        "--max-agents <n>",
        "stop the run (exit 4) before it starts more agents than this",
      ).argParser(positiveInteger),
    )
    .addOption(
      new Option(
        "--max-tokens <n>",
        "stop the run (exit 4) once its agents used more tokens than this",
      ).argParser(positiveInteger),
    )
    .addOption(
      new Option(
        "--max-cost <usd>",
        "stop the run (exit 4) once its agents cost more than this (US dollars)",
      ).argParser(positiveNumber),
    )
    .addOption(
      new Option("--timeout <seconds>", "stop the run (exit 4) after this many seconds").argParser(
        positiveNumber,
      ),
    )
    .addOption(
      new Option(
        "-o, --output-format <format>",
        "text (the result on stdout), json (the outcome as one object) or stream-json (one event per line)",
      )
        .choices(OUTPUT_FORMATS)
        .default("text"),
    )
    .addOption(cwdOption())
    .addOption(
      permissionModeOption("how permission requests no rule decides are resolved (default: default)"),
    )
    .addOption(maxConcurrencyOption())
    .addOption(mcpConfigOption())
    .addOption(trustProjectOption())
    .addOption(new Option("--agents <json>", "extra subagents as JSON; they override agent files"))
    .addOption(storeOption())
    .addOption(queueOption())
    .action(lazyAction(deps, async () => (await import("./workflow.ts")).workflowRunCommand));
  workflow
    .command("list")
    .summary("list the saved workflows")
    .description("List the saved workflows of the project and your home: name, description, file.")
    .addOption(cwdOption())
    .addOption(jsonOption())
    .action(lazyAction(deps, async () => (await import("./workflow.ts")).workflowListCommand));
  return workflow;
}
