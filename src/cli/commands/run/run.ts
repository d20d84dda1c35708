import { homedir } from "node:os";
import { type TreeBudget, watchTreeBudget } from "../../../agent/limits/tree-budget.ts";
import { runAgent } from "../../../agent/run.ts";
import { Session } from "../../../agent/session/session.ts";
import { newSessionId } from "../../../agent/session/session-id.ts";
import { withHookContext } from "../../../hooks/session-events.ts";
import type { Model } from "../../../model/model.ts";
import type { PermissionMode } from "../../../permissions/gate.ts";
import { endpointCheck } from "../../config/resolve-settings.ts";
import { commandFiles } from "../../custom-commands/command-files.ts";
import { expandCommand, rootExpandOptions } from "../../custom-commands/expand-command.ts";
import type { SavedCommand } from "../../custom-commands/saved-command.ts";
import { commandModel, savedCommandFor } from "../../custom-commands/slash-prompt.ts";
import { terminalElicit } from "../../elicit-prompt.ts";
import { exitCodeForOutcome } from "../../exit-codes.ts";
import { exitAborted, handleInterrupts } from "../../interrupts.ts";
import type { CliIo } from "../../io.ts";
import { promptMessage } from "../../mentions/prompt-message.ts";
import { terminalAsk } from "../../permission-prompt.ts";
import { type Attachment, imageFiles } from "../../prompt-attachments.ts";
import { PromptBlockedError } from "../../prompt-blocked.ts";
import { readPrompt } from "../../read-prompt.ts";
import type { OutputFormat } from "../../render/renderer.ts";
import { colorEnabled } from "../../render/style.ts";
import { createTreeRenderer, resumeTreeAfter } from "../../render/with-agent-tree.ts";
import { chooseSession } from "../../session-choice.ts";
import {
  loadRunSettings,
  type RunSettings,
  selectSessionAndModel,
  sharedWiring,
} from "../../wire/prepare-run.ts";
import { rootWiring, sessionWiring, wireTracedRoot } from "../../wire/start-root.ts";
import type { WiredHooks } from "../../wire/wire-hooks.ts";

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
  /** `--no-hooks` sets it false: no hook runs. */
  hooks?: boolean;
}

/** `agentry run [prompt]`: one non-interactive run of the root agent. Returns the exit code. */
export async function runCommand(
  promptArgument: string | undefined,
  options: RunOptions,
  io: CliIo,
): Promise<number> {
  const loaded = await loadRunSettings(options, io);
  const { workspace, settings, project } = loaded;
  const prompt = await readPrompt(promptArgument, io.stdin, { stderr: io.stderr });
  const images = await imageFiles(options.image ?? [], { workspace, cwd: io.cwd });
  const resume = await chooseSession(workspace, options);
  // `agentry run /review security`: a saved command (its model, unless --model names one).
  const saved = await savedCommandFor(prompt, commandFiles(workspace, io.env.HOME || homedir()));
  const fromCommand =
    saved === undefined || options.model !== undefined
      ? undefined
      : commandModel(saved.command, {
          trusted: settings.trusted,
          sameEndpoint: endpointCheck(project.loaded, {}, io.env),
          say: (line) => io.stderr.write(`${line}\n`),
        });
  const modelSettings =
    fromCommand === undefined || saved === undefined
      ? settings
      : { ...settings, model: { value: fromCommand, source: `/${saved.command.name}` } };
  const { resumed, model } = await selectSessionAndModel(
    workspace,
    modelSettings,
    io,
    resume,
    loaded.limiters,
  );
  // The session's lock is held from here (a resumed one) or from its creation until the run is over.
  const held: { session: Session | undefined } = { session: resumed };
  try {
    const run = {
      ...loaded,
      promptArgument,
      prompt,
      images,
      model,
      ...(saved === undefined ? {} : { saved }),
    };
    return await runSession(held, run, options, io);
  } finally {
    held.session?.close();
  }
}

/** What `loadRunSettings` read, with what `run` added: the prompt, its images, the model. */
interface RunContext extends RunSettings {
  promptArgument: string | undefined;
  prompt: string;
  /** The `--image` files, as attachments of the prompt. */
  images: Attachment[];
  model: Model;
  /** The saved command the prompt runs (`/review security`), with its arguments. */
  saved?: { command: SavedCommand; args: string };
}

async function runSession(
  held: { session: Session | undefined },
  run: RunContext,
  options: RunOptions,
  io: CliIo,
): Promise<number> {
  const { promptArgument, prompt, images, workspace, settings, model, saved } = run;
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
  const { wired, tracing } = await wireTracedRoot({
    ...rootWiring(run, model, io),
    signal: controller.signal,
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
    ...sessionWiring(options, run.project),
    ...(options.workflows === undefined ? {} : { workflows: options.workflows }),
    ...sharedWiring(options),
  }).catch((error: unknown) => {
    disposeInterrupts();
    throw error;
  });
  const { config, close } = wired;
  const budget = watchTreeBudget(treeBudget(options), controller);
  wired.hooks?.setSink((event) => renderer.event(event));
  try {
    const sessionId = held.session?.id ?? newSessionId();
    // UserPromptSubmit and mentions come before the session exists: a refused prompt (exit 2) leaves
    // no transcript.
    const text =
      saved === undefined
        ? prompt
        : await expandCommand(
            saved.command,
            saved.args,
            rootExpandOptions(wired, settings.trusted, controller.signal, (line) =>
              io.stderr.write(`${line}\n`),
            ),
          );
    const context = await submitPrompt(wired.hooks, text, sessionId, controller.signal, io);
    const message = await promptMessage(text, {
      config,
      signal: controller.signal,
      sessionId,
      say: (line) => io.stderr.write(`${line}\n`),
      mcp: wired.mcp,
    });
    // Created only now, so a bad --agents or --mcp-config (exit 2) leaves no empty transcript behind.
    held.session ??= await Session.create({ workspace, agentName: "main", model: model.id, id: sessionId });
    const session = held.session;
    // `--image` files come right after the prompt's text, before what its mentions brought.
    message.content.splice(1, 0, ...images);
    await session.append(withHookContext(message, context));
    const run = runAgent(config, session, controller.signal);
    for await (const event of run) {
      budget.observe(event);
      renderer.event(event);
      tracing?.event(event);
    }
    const outcome = await run.outcome;
    await wired.hooks?.end(session.id, "other");
    renderer.finish(outcome);
    abortReported = outcome.status === "aborted";
    return exitCodeForOutcome(outcome.status);
  } finally {
    budget.dispose();
    wired.commandGrants.clear();
    await close();
    await tracing?.close();
    disposeInterrupts();
  }
}

/**
 * UserPromptSubmit: what the hooks add to the prompt for the model; a blocked prompt is a
 * `PromptBlockedError` (exit 2: nothing was sent), with the hooks' reason for the person.
 */
async function submitPrompt(
  hooks: WiredHooks | undefined,
  prompt: string,
  sessionId: string,
  signal: AbortSignal,
  io: CliIo,
): Promise<string[]> {
  if (hooks === undefined) return [];
  const verdict = await hooks.submit(prompt, sessionId, signal);
  if (verdict.action === "block") throw new PromptBlockedError(verdict.reason);
  for (const note of verdict.notes) io.stderr.write(`${note}\n`);
  return verdict.context;
}

function treeBudget(options: RunOptions): TreeBudget {
  const budget: TreeBudget = {};
  if (options.maxTokens !== undefined) budget.maxTokens = options.maxTokens;
  if (options.maxCost !== undefined) budget.maxCostUsd = options.maxCost;
  if (options.timeout !== undefined) budget.maxDurationMs = options.timeout * 1_000;
  return budget;
}
