import { runAgent } from "../../agent/run.ts";
import { Session, SessionNotFoundError } from "../../agent/session.ts";
import { InvalidSessionIdError } from "../../agent/session-id.ts";
import { userText } from "../../model/messages.ts";
import { createPermissionGate, type PermissionMode } from "../../permissions/gate.ts";
import { loadConfigFiles } from "../config/load-config.ts";
import { resolveSettings, type SettingFlags } from "../config/resolve-settings.ts";
import { UsageError } from "../errors.ts";
import { EXIT_CODES, exitCodeForOutcome } from "../exit-codes.ts";
import { handleInterrupts } from "../interrupts.ts";
import type { CliIo } from "../io.ts";
import { terminalAsk } from "../permission-prompt.ts";
import { permissionRules } from "../permission-rules.ts";
import { readPrompt } from "../read-prompt.ts";
import type { OutputFormat } from "../render/renderer.ts";
import { colorEnabled } from "../render/style.ts";
import { createTreeRenderer, resumeTreeAfter } from "../render/with-agent-tree.ts";
import { selectModel } from "../select-model.ts";
import { buildSystemPrompt } from "../system-prompt.ts";
import { wireAgent } from "../wire-agent.ts";
import { agentFileWarning, wireSubagents } from "../wire-subagents.ts";
import { resolveWorkspace } from "../workspace.ts";

export interface RunOptions {
  model?: string;
  maxTurns?: number;
  outputFormat: OutputFormat;
  cwd?: string;
  resume?: string;
  permissionMode?: PermissionMode;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  agents?: string;
}

/** `agentry run <prompt>`: one non-interactive run of the root agent. Returns the exit code. */
export async function runCommand(promptArgument: string, options: RunOptions, io: CliIo): Promise<number> {
  const workspace = await resolveWorkspace(options.cwd, io.cwd);
  const flags: SettingFlags = {};
  if (options.model !== undefined) flags.model = options.model;
  if (options.maxTurns !== undefined) flags.maxTurns = options.maxTurns;
  if (options.permissionMode !== undefined) flags.permissionMode = options.permissionMode;
  const settings = resolveSettings(await loadConfigFiles({ workspace, env: io.env }), flags, io.env);
  const rules = permissionRules(settings);
  const prompt = await readPrompt(promptArgument, io.stdin);

  const resumed = options.resume === undefined ? undefined : await resumeSession(workspace, options.resume);
  for (const warning of resumed?.warnings ?? []) io.stderr.write(`warning: ${warning}\n`);
  // The model is validated before a new session is created, so a config error leaves no empty transcript.
  const model = await selectModel(settings, io.env, resumed?.model);
  const session = resumed ?? (await Session.create({ workspace, agentName: "main", model: model.id }));

  const renderer = createTreeRenderer(options.outputFormat, {
    stdout: io.stdout,
    stderr: io.stderr,
    color: colorEnabled(io.stderr, io.env),
  });
  const controller = new AbortController();
  const interactive = promptArgument !== "-" && io.stdin.isTTY === true && io.stderr.isTTY === true;
  const ask = createPermissionGate({
    rules,
    mode: settings.permissionMode.value,
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
        }
      : {}),
  });
  const systemPromptOptions: Parameters<typeof buildSystemPrompt>[0] = { workspace };
  if (options.systemPrompt !== undefined) systemPromptOptions.replace = options.systemPrompt;
  if (options.appendSystemPrompt !== undefined) systemPromptOptions.append = options.appendSystemPrompt;
  const root = wireAgent({
    workspace,
    model,
    systemPrompt: await buildSystemPrompt(systemPromptOptions),
    settings,
    ask,
    env: io.env,
  });
  const { config, runtime, diagnostics } = await wireSubagents(root, {
    workspace,
    settings,
    gate: ask,
    env: io.env,
    ...(options.agents === undefined ? {} : { agentsJson: options.agents }),
  });
  const agentWarning = agentFileWarning(diagnostics);
  if (agentWarning) io.stderr.write(`${agentWarning}\n`);

  const disposeInterrupts = handleInterrupts({
    controller,
    forceExit: () => {
      io.stderr.write("aborted\n");
      process.exit(EXIT_CODES.aborted);
    },
  });
  try {
    await session.append(userText(prompt));
    const run = runAgent(config, session, controller.signal);
    for await (const event of run) renderer.event(event);
    const outcome = await run.outcome;
    renderer.finish(outcome);
    return exitCodeForOutcome(outcome.status);
  } finally {
    await runtime.shutdown();
    disposeInterrupts();
  }
}

async function resumeSession(workspace: string, id: string): Promise<Session> {
  try {
    return await Session.resume(workspace, id);
  } catch (error) {
    if (error instanceof SessionNotFoundError || error instanceof InvalidSessionIdError) {
      throw new UsageError(`--resume: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
