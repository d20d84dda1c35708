import { rmSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { exitCodeForOutcome } from "../../exit-codes.ts";
import { exitAborted, handleInterrupts } from "../../interrupts.ts";
import type { CliIo } from "../../io.ts";
import { colorEnabled, createStyle } from "../../render/style.ts";
import type { CommandDeps } from "../command-deps.ts";

export interface DemoOptions {
  keep?: boolean;
  outputFormat: "text" | "json";
  /** Milliseconds each scripted reply waits (default 200), so the tree can be watched. */
  paceMs?: number;
}

const DEMO_HELP = `
The answer goes to stdout, the live agent tree to stderr, then how many tokens the
subagents read against how many the parent's context kept. See docs/cli.md.

Examples:
  $ agentry demo
  $ agentry demo --keep                # keep the sample repository and transcripts
  $ agentry demo --output-format json  # the numbers as one JSON object
`;

function paceMs(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number > 10_000) {
    throw new InvalidArgumentError("must be a whole number of milliseconds, at most 10000.");
  }
  return number;
}

/** Adds `agentry demo` to the program; the demo's modules load only when it runs. */
export function registerDemoCommand(program: Command, { io, result }: CommandDeps): Command {
  return program
    .command("demo")
    .summary("watch subagents work: an offline run on a sample repository")
    .description(
      "Run a real agent with three parallel explore subagents on a sample repository, offline. " +
        "A scripted model replaces the LLM (no API key, no network); the tools and subagents are real.",
    )
    .option("--keep", "keep the sample repository (and the run's transcripts) and print its path")
    .addOption(
      new Option("-o, --output-format <format>", "text, or one json object with the numbers")
        .choices(["text", "json"])
        .default("text"),
    )
    .addOption(new Option("--pace-ms <ms>", "delay of each scripted reply").argParser(paceMs).hideHelp())
    .addHelpText("after", DEMO_HELP)
    .action(async (options: DemoOptions) => {
      result.exitCode = await demoCommand(options, io);
    });
}

/** `agentry demo`. Returns the exit code. */
export async function demoCommand(options: DemoOptions, io: CliIo): Promise<number> {
  const { runDemo } = await import("./run-demo.ts");
  const { demoJson, demoReport } = await import("./demo-report.ts");
  const { DEMO_PROMPT } = await import("./demo-model.ts");
  const { withAgentTree } = await import("../../render/with-agent-tree.ts");
  const { textRenderer } = await import("../../render/text-renderer.ts");

  const workspace = await realpath(await mkdtemp(join(tmpdir(), "agentry-demo-")));
  const keep = options.keep === true;
  const out = createStyle(colorEnabled(io.stdout, io.env));
  const controller = new AbortController();
  const disposeInterrupts = handleInterrupts({
    controller,
    forceExit: () => {
      if (!keep) rmSync(workspace, { recursive: true, force: true });
      exitAborted(io.stderr);
    },
  });
  const started = Date.now();
  try {
    const pace = options.paceMs === undefined ? {} : { paceMs: options.paceMs };
    if (options.outputFormat === "json") {
      const result = await runDemo({ workspace, signal: controller.signal, ...pace });
      io.stdout.write(demoJson(result, keep ? workspace : undefined, Date.now() - started));
      return exitCodeForOutcome(result.outcome.status);
    }
    io.stdout.write(
      [
        out.bold("agentry demo: a real agent run on a sample repository, offline"),
        out.dim("A scripted model stands in for the LLM (no network, no API key);"),
        out.dim("the agent loop, the tools and the subagents are real."),
        out.dim(`Sample repository: ${workspace}`),
        out.dim(keep ? "(kept afterwards: --keep)" : "(deleted at the end; --keep keeps it)"),
        "",
        `${out.cyan(">")} ${DEMO_PROMPT}`,
        "",
        "",
      ].join("\n"),
    );
    const renderer = withAgentTree(textRenderer, {
      stdout: io.stdout,
      stderr: io.stderr,
      color: colorEnabled(io.stderr, io.env),
    });
    const result = await runDemo({
      workspace,
      signal: controller.signal,
      onEvent: (event) => renderer.event(event),
      ...pace,
    });
    renderer.finish(result.outcome);
    io.stdout.write(`\n${demoReport(result, out)}`);
    if (keep) {
      io.stdout.write(
        `\nKept the sample repository: ${workspace}\n` +
          `  its transcripts: agentry sessions list --cwd ${workspace}\n`,
      );
    }
    return exitCodeForOutcome(result.outcome.status);
  } finally {
    disposeInterrupts();
    if (!keep) await rm(workspace, { recursive: true, force: true });
  }
}
