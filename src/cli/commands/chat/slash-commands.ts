import { spawnableAgents } from "../../../subagents/index.ts";
import type { TaskRecord } from "../../../tasks/task-record.ts";
import { errorMessage } from "../../../text/error-message.ts";
import { oneLine } from "../../../text/summarize-args.ts";
import { didYouMean } from "../../config/did-you-mean.ts";
import type { SavedCommand } from "../../custom-commands/saved-command.ts";
import { age } from "../../render/table.ts";
import { compactCommand } from "./compact-command.ts";
import type { SlashContext, SlashOutcome } from "./slash-context.ts";

export type { SlashContext, SlashOutcome } from "./slash-context.ts";

interface SlashCommand {
  names: readonly string[];
  usage: string;
  summary: string;
  run(args: string, context: SlashContext): Promise<SlashOutcome> | SlashOutcome;
}

const COMMANDS: readonly SlashCommand[] = [
  { names: ["help"], usage: "/help", summary: "this help", run: help },
  {
    names: ["new"],
    usage: "/new",
    summary: "start a fresh session (the current one stays stored)",
    run(_args, context) {
      context.conversation.startNew();
      context.say(`New session ${context.conversation.id}.`);
      return "continue";
    },
  },
  {
    names: ["session"],
    usage: "/session",
    summary: "this session's id and how to continue it later",
    run(_args, { conversation, say }) {
      const count = conversation.messageCount;
      const stored = count === 0 ? "nothing stored yet" : `${count} message${count === 1 ? "" : "s"}`;
      say(
        `Session ${conversation.id} (${stored}).\n` +
          `Continue it later with: agentry chat --resume ${conversation.id}\n` +
          `                    or: agentry run --resume ${conversation.id} "…"`,
      );
      return "continue";
    },
  },
  {
    names: ["model"],
    usage: "/model [id]",
    summary: "show the model, or switch it for the next turns (provider:model or an alias)",
    run: switchModel,
  },
  {
    names: ["compact"],
    usage: "/compact [focus]",
    summary: "replace the older turns by a summary now (what it should focus on, optionally)",
    run: compactCommand,
  },
  { names: ["agents"], usage: "/agents", summary: "the subagents the agent can delegate to", run: agents },
  {
    names: ["tasks"],
    usage: "/tasks",
    summary: "this session's subagent tasks and their status",
    run: tasks,
  },
  { names: ["mcp"], usage: "/mcp", summary: "the MCP servers of this session and their tools", run: mcp },
  {
    names: ["exit", "quit"],
    usage: "/exit, /quit",
    summary: "leave (also Ctrl-D, or Ctrl-C twice at an empty prompt)",
    run: () => "exit",
  },
];

const NAMES = COMMANDS.flatMap((command) => command.names);

/** Whether `/name` is one of chat's own commands (they win over saved commands of the same name). */
export function isBuiltInCommand(name: string): boolean {
  return NAMES.includes(name.toLowerCase());
}

/** Every command name a line may start with, for completion: chat's own, then the saved ones. */
export function commandNames(saved: readonly { name: string }[] = []): string[] {
  return [...NAMES, ...saved.map((command) => command.name).filter((name) => !isBuiltInCommand(name))];
}

/** `/name args…` → its parts; anything else (including a path such as `/usr/bin …`) is a prompt. */
export function parseSlashCommand(line: string): { name: string; args: string } | undefined {
  const match = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match?.[1]) return undefined;
  return { name: match[1].toLowerCase(), args: (match[2] ?? "").trim() };
}

/** Runs one slash command; an unknown one is reported with the list of commands. */
export async function runSlashCommand(
  command: { name: string; args: string },
  context: SlashContext,
): Promise<SlashOutcome> {
  const found = COMMANDS.find((candidate) => candidate.names.includes(command.name));
  if (found) return found.run(command.args, context);
  const names = commandNames(context.savedCommands);
  const suggestion = didYouMean(command.name, names);
  context.say(
    `Unknown command /${command.name}.${suggestion ? ` Did you mean /${suggestion}?` : ""} ` +
      `Commands: ${names.map((name) => `/${name}`).join(" ")} (/help explains them).`,
  );
  return "continue";
}

function help(_args: string, context: SlashContext): SlashOutcome {
  const width = Math.max(...COMMANDS.map((command) => command.usage.length)) + 2;
  const lines = COMMANDS.map((command) => `  ${command.usage.padEnd(width)}${command.summary}`);
  context.say(
    [
      "Type a message to talk to the agent; it keeps the whole conversation. @path in a message",
      "inlines that file (or lists that folder) through the read permission rules.",
      "Commands:",
      ...lines,
      `  ${"!<command>".padEnd(width)}run a shell command (permission rules and sandbox as the agent's);`,
      `  ${"".padEnd(width)}it and its output join the conversation for the next turn`,
      ...savedCommandLines(context.savedCommands ?? [], width),
      "Keys: Ctrl-C interrupts a running turn (or clears the line); ↑/↓ recall earlier lines; Tab completes a /command.",
    ].join("\n"),
  );
  return "continue";
}

/** `/help`'s part for saved commands: usage, description and where each was found. */
function savedCommandLines(saved: readonly SavedCommand[], width: number): string[] {
  const shown = saved.filter((command) => !isBuiltInCommand(command.name));
  if (shown.length === 0) return [];
  const usages = shown.map(
    (command) => `/${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ""}`,
  );
  const pad = Math.max(width, ...usages.map((usage) => usage.length + 2));
  return [
    "Saved commands (run as the prompt they hold; see docs/commands.md):",
    ...shown.map(
      (command, index) =>
        `  ${(usages[index] ?? "").padEnd(pad)}${oneLine(command.description, 80)} (${command.source.kind}: ${command.source.label})`,
    ),
  ];
}

async function switchModel(args: string, context: SlashContext): Promise<SlashOutcome> {
  if (args === "") {
    context.say(`Model: ${context.model.id}. Switch with /model <provider:model or alias>.`);
    return "continue";
  }
  try {
    const model = await context.createModel(args);
    context.model.switchTo(model);
    context.say(`Model: ${model.id} from the next turn on.`);
  } catch (error) {
    context.say(`Cannot use model "${args}": ${errorMessage(error)}`);
  }
  return "continue";
}

function agents(_args: string, { runtime, say }: SlashContext): SlashOutcome {
  const roster = spawnableAgents(runtime.registry, runtime.gate.rules);
  if (roster.length === 0) {
    say("No subagents are available to this agent (see: agentry agents list).");
    return "continue";
  }
  const width = Math.max(...roster.map((agent) => agent.name.length)) + 2;
  const lines = roster.map(
    (agent) =>
      `  ${agent.name.padEnd(width)}${oneLine(agent.description, 90)}${agent.model ? ` (${agent.model})` : ""}`,
  );
  say(["Subagents the agent can delegate to:", ...lines, "Details: agentry agents show <name>"].join("\n"));
  return "continue";
}

/** The MCP tools the agent has, by server (`mcp__<server>__<tool>`; server names hold no `__`). */
function mcp(_args: string, { runtime, say }: SlashContext): SlashOutcome {
  const byServer = new Map<string, string[]>();
  for (const tool of runtime.baseTools()) {
    const server = /^mcp__(.+?)__/.exec(tool.name)?.[1];
    if (server !== undefined) byServer.set(server, [...(byServer.get(server) ?? []), tool.name]);
  }
  if (byServer.size === 0) {
    say(
      'No MCP servers in this session (configure "mcpServers", or pass --mcp-config; see agentry mcp --help).',
    );
    return "continue";
  }
  const lines = [...byServer].map(
    ([server, names]) =>
      `  ${server} (${names.length} tool${names.length === 1 ? "" : "s"}): ${names.join(", ")}`,
  );
  say(["MCP servers and the tools the agent has from them:", ...lines].join("\n"));
  return "continue";
}

async function tasks(_args: string, { runtime, conversation, say }: SlashContext): Promise<SlashOutcome> {
  const records = await runtime.store.list({ parentSessionId: conversation.id, onUnreadable: () => {} });
  if (records.length === 0) {
    say("No subagent tasks in this session yet.");
    return "continue";
  }
  const now = Date.now();
  say(
    [
      `Tasks of session ${conversation.id}, newest first:`,
      ...records.map((record) => `  ${taskLine(record, now)}`),
      "Details: agentry tasks show <task-id>",
    ].join("\n"),
  );
  return "continue";
}

function taskLine(record: TaskRecord, now: number): string {
  const status = record.reason === undefined ? record.status : `${record.status} (${record.reason})`;
  const ago = age(now - Date.parse(record.createdAt));
  return `${record.taskId}  ${status}  ${record.agentType}  ${oneLine(record.description, 60)}  ${ago} ago`;
}
