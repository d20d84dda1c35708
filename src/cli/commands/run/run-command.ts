import { type Command, Option } from "commander";
import { queueOption, storeOption } from "../../fleet-flags.ts";
import { OUTPUT_FORMATS } from "../../render/renderer.ts";
import { type CommandDeps, lazyAction } from "../command-deps.ts";
import {
  continueOption,
  cwdOption,
  imageOption,
  maxConcurrencyOption,
  mcpConfigOption,
  noHooksOption,
  permissionModeOption,
  positiveInteger,
  positiveNumber,
  resumeOption,
  trustProjectOption,
} from "../options.ts";

const RUN_EXAMPLES = `
Examples:
  $ agentry run "Why does npm test fail? Fix it."
  $ agentry run --model openai:gpt-5.5 "Add a --verbose flag to the CLI"
  $ cat task.md | agentry run -                    # the prompt is read from stdin
  $ git diff | agentry run "Review this diff"       # piped stdin follows the prompt
  $ agentry -p "Summarize README.md"               # -p: the same as run, as in claude -p
  $ agentry run -c "Now add tests for it"          # continue your latest session here
  $ agentry run --image shot.png "Why does the page look like this?"   # also @shot.png in the prompt
  $ agentry run --output-format json "Summarize README.md" | jq -r .result
  $ agentry run --output-format stream-json "…"     # one JSON event per line (docs/stream-json.md)
  $ agentry run --resume 20250114-093012-k3f9qa "Now add tests for it"
  $ agentry run --permission-mode bypass --cwd ../other-repo "Run the tests and fix failures"
  $ agentry run --max-cost 2 --timeout 900 "Fix the flaky test"   # budgets of the whole tree
  $ agentry run --store redis://fleet:6379/0 --queue agentry "Review every package"  # children on workers
  $ agentry run --agents '{"reviewer": {"description": "Reviews diffs", "prompt": "…"}}' "Review the last commit"

Subagents: the agent delegates to the agents of \`agentry agents list\` with its task
tool, and draws them as a live tree on stderr. See docs/subagents.md.
Permission modes and rules: docs/permissions.md. Every option: docs/cli.md.

Exit codes: 0 completed, 1 error, 2 usage or config error, 3 max turns reached,
4 budget exceeded, 130 interrupted. See docs/exit-codes.md.
`;

/** Adds `agentry run`; the run's modules (models, tools, the runtime) load only when it runs. */
export function registerRunCommand(program: Command, deps: CommandDeps): Command {
  return program
    .command("run")
    .summary("run the agent once on a prompt")
    .description(
      "Run the coding agent on a prompt until it answers, then exit. The answer streams to stdout " +
        "(piped or in a file, stdout gets the final answer alone, at the end); tool activity is shown on stderr.",
    )
    .argument(
      "[prompt]",
      'what to do; "-" or none reads the prompt from stdin; piped stdin with a prompt is appended to it',
    )
    .addOption(
      new Option(
        "-p, --print",
        'print the answer and exit: what run does anyway (agentry -p "…" is agentry run "…", as claude -p)',
      ),
    )
    .addOption(
      new Option(
        "-m, --model <id>",
        "model as provider:model (anthropic:…, openai:…, ollama:…) or an alias (sonnet, opus, haiku)",
      ),
    )
    .addOption(
      new Option("--max-turns <n>", "stop after this many model turns (default 30)").argParser(
        positiveInteger,
      ),
    )
    .addOption(maxConcurrencyOption())
    .addOption(
      new Option(
        "--max-tokens <n>",
        "stop the run (exit 4) once the agent and its subagents used more tokens (input, output, cache) than this",
      ).argParser(positiveInteger),
    )
    .addOption(
      new Option(
        "--max-cost <usd>",
        "stop the run (exit 4) once the agent and its subagents cost more than this many US dollars (models with a known price)",
      ).argParser(positiveNumber),
    )
    .addOption(
      new Option(
        "--timeout <seconds>",
        "stop the run (exit 4) after this many seconds, subagents included",
      ).argParser(positiveNumber),
    )
    .addOption(
      new Option(
        "-o, --output-format <format>",
        "text (streamed), json (one result object at the end) or stream-json (one event per line)",
      )
        .choices(OUTPUT_FORMATS)
        .default("text"),
    )
    .addOption(cwdOption())
    .addOption(trustProjectOption())
    .addOption(imageOption())
    .addOption(resumeOption())
    .addOption(continueOption())
    .addOption(
      permissionModeOption("how permission requests no rule decides are resolved (default: default)"),
    )
    .addOption(new Option("--system-prompt <text>", "replace the built-in system prompt"))
    .addOption(new Option("--append-system-prompt <text>", "append text to the system prompt"))
    .addOption(mcpConfigOption())
    .addOption(noHooksOption())
    .addOption(
      new Option(
        "--workflows",
        "give the agent the workflow tool: scripts that orchestrate many subagents (or workflows.enabled in agentry.json)",
      ),
    )
    .addOption(
      new Option(
        "--agents <json>",
        'extra subagents as JSON, e.g. \'{"reviewer": {"description": "…", "prompt": "…", "tools": ["read"]}}\'; they override agent files',
      ),
    )
    .addOption(storeOption())
    .addOption(queueOption())
    .addHelpText("after", RUN_EXAMPLES)
    .action(lazyAction(deps, async () => (await import("./run.ts")).runCommand));
}
