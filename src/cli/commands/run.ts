import { runAgent } from "../../agent/run.ts";
import { Session } from "../../agent/session.ts";
import { type TreeBudget, watchTreeBudget } from "../../agent/tree-budget.ts";
import type { LoadedAgents } from "../../agents/discover.ts";
import type { Model } from "../../model/model.ts";
import type { PermissionMode } from "../../permissions/gate.ts";
import { terminalElicit } from "../elicit-prompt.ts";
import { exitCodeForOutcome } from "../exit-codes.ts";
import { exitAborted, handleInterrupts } from "../interrupts.ts";
import type { CliIo } from "../io.ts";
import { promptMessage } from "../mentions/prompt-message.ts";
import { terminalAsk } from "../permission-prompt.ts";
import { loadRunSettings, selectSessionAndModel, sharedWiring, wireRoot } from "../prepare-run.ts";
import { type Attachment, imageFiles } from "../prompt-attachments.ts";
import { readPrompt } from "../read-prompt.ts";
import type { OutputFormat } from "../render/renderer.ts";
import { colorEnabled } from "../render/style.ts";
import { createTreeRenderer, resumeTreeAfter } from "../render/with-agent-tree.ts";
import { chooseSession } from "../session-choice.ts";

export interface RunOptions {
  /** `--trust-project`: the project's widening settings apply for this run. */
  trustProject?: boolean;
  model?: string;
  maxTurns?: number;
  /** The most model calls in flight per endpoint (the adaptive limit's ceiling). */
  maxConcurrency?: number;
  outputFormat: OutputFormat;
  cwd?: string;
  resume?: string;
  /** `-c, --continue`: the latest of the user's sessions in the workspace. */
  continue?: boolean;
  /** `-p, --print`: what `run` does anyway (for commands written for `claude -p`). */
  print?: boolean;
  permissionMode?: PermissionMode;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  agents?: string;
  /** `--mcp-config` values (repeatable). */
  mcpConfig?: string[];
  /** `--workflows`: the root gets the `workflow` tool. */
  workflows?: boolean;
  /** `--image` files (repeatable): sent with the prompt. */
  image?: string[];
  /** Budgets of the whole run, subagents included: tokens, US dollars, seconds. */
  maxTokens?: number;
  maxCost?: number;
  timeout?: number;
  /** `--store` and `--queue`: a fleet on Redis. */
  store?: string;
  queue?: string;
}

/** `agentry run [prompt]`: one non-interactive run of the root agent. Returns the exit code. */
export async function runCommand(
  promptArgument: string | undefined,
  options: RunOptions,
  io: CliIo,
): Promise<number> {
  const { workspace, settings, rules, limiters, project } = await loadRunSettings(options, io);
  const prompt = await readPrompt(promptArgument, io.stdin, { stderr: io.stderr });
  const images = await imageFiles(options.image ?? [], { workspace, cwd: io.cwd });
  const resume = await chooseSession(workspace, options);
  const { resumed, model } = await selectSessionAndModel(workspace, settings, io, resume, limiters);
  // The session's lock is held from here (a resumed one) or from its creation until the run is over.
  const held: { session: Session | undefined } = { session: resumed };
  try {
    const run = {
      promptArgument,
      prompt,
      images,
      workspace,
      settings,
      rules,
      limiters,
      model,
      definitions: project.agents,
    };
    return await runSession(held, run, options, io);
  } finally {
    held.session?.close();
  }
}

interface RunContext {
  promptArgument: string | undefined;
  prompt: string;
  /** The `--image` files, as attachments of the prompt. */
  images: Attachment[];
  workspace: string;
  settings: Awaited<ReturnType<typeof loadRunSettings>>["settings"];
  rules: Awaited<ReturnType<typeof loadRunSettings>>["rules"];
  limiters: Awaited<ReturnType<typeof loadRunSettings>>["limiters"];
  model: Model;
  definitions: LoadedAgents;
}

async function runSession(
  held: { session: Session | undefined },
  { promptArgument, prompt, images, workspace, settings, rules, limiters, model, definitions }: RunContext,
  options: RunOptions,
  io: CliIo,
): Promise<number> {
  const renderer = createTreeRenderer(
    options.outputFormat,
    { stdout: io.stdout, stderr: io.stderr, color: colorEnabled(io.stderr, io.env) },
    // On a terminal the answer streams; piped or in a file, the run gives one answer (docs/cli.md).
    { answer: io.stdout.isTTY === true ? "stream" : "final" },
  );
  const interactive =
    promptArgument !== undefined &&
    promptArgument !== "-" &&
    io.stdin.isTTY === true &&
    io.stderr.isTTY === true;
  // Ctrl-C is handled from here on: during the wiring it cancels MCP servers that are still starting.
  const controller = new AbortController();
  // Set once the renderer reported an aborted outcome: a forced exit during the shutdown adds no line.
  let abortReported = false;
  const disposeInterrupts = handleInterrupts({
    controller,
    forceExit: () => exitAborted(io.stderr, abortReported),
  });
  const wired = await wireRoot({
    signal: controller.signal,
    workspace,
    settings,
    rules,
    definitions,
    model,
    io,
    limiters,
    ...(interactive
      ? {
          onAsk: resumeTreeAfter(
            renderer,
            terminalAsk({
              input: io.stdin,
              output: io.stderr,
              beforePrompt: () => renderer.interrupt?.(),
            }),
          ),
          onElicit: resumeTreeAfter(
            renderer,
            terminalElicit({
              input: io.stdin,
              output: io.stderr,
              beforePrompt: () => renderer.interrupt?.(),
            }),
          ),
        }
      : {}),
    ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
    ...(options.appendSystemPrompt === undefined ? {} : { appendSystemPrompt: options.appendSystemPrompt }),
    ...(options.workflows === undefined ? {} : { workflows: options.workflows }),
    ...sharedWiring(options),
  }).catch((error: unknown) => {
    disposeInterrupts();
    throw error;
  });
  const { config, close } = wired;
  const budget = watchTreeBudget(treeBudget(options), controller);
  try {
    // Mentions are read before the session exists, so a refused one (exit 2) leaves no transcript.
    const message = await promptMessage(prompt, {
      config,
      signal: controller.signal,
      sessionId: held.session?.id ?? "",
      say: (line) => io.stderr.write(`${line}\n`),
      mcp: wired.mcp,
    });
    // Created only now, so a bad --agents or --mcp-config (exit 2) leaves no empty transcript behind.
    held.session ??= await Session.create({ workspace, agentName: "main", model: model.id });
    const session = held.session;
    // `--image` files come right after the prompt's text, before what its mentions brought.
    message.content.splice(1, 0, ...images);
    await session.append(message);
    const run = runAgent(config, session, controller.signal);
    for await (const event of run) {
      budget.observe(event);
      renderer.event(event);
    }
    const outcome = await run.outcome;
    renderer.finish(outcome);
    abortReported = outcome.status === "aborted";
    return exitCodeForOutcome(outcome.status);
  } finally {
    budget.dispose();
    await close();
    disposeInterrupts();
  }
}

function treeBudget(options: RunOptions): TreeBudget {
  const budget: TreeBudget = {};
  if (options.maxTokens !== undefined) budget.maxTokens = options.maxTokens;
  if (options.maxCost !== undefined) budget.maxCostUsd = options.maxCost;
  if (options.timeout !== undefined) budget.maxDurationMs = options.timeout * 1_000;
  return budget;
}
