import { isAbsolute, relative } from "node:path";
import type { AgentDefinition } from "../../../agents/definition.ts";
import { formatDiagnostics, hasErrors } from "../../../agents/diagnostics.ts";
import { type EffectiveAccess, effectiveAccess } from "../../../agents/effective-access.ts";
import { describePeerFiles } from "../../config/peers/peer-summary.ts";
import { type ProjectView, readProject } from "../../config/read-project.ts";
import { trustNotice } from "../../config/trust-notice.ts";
import { UsageError } from "../../errors.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import type { CliIo } from "../../io.ts";
import { registryOf } from "../../wire/wire-subagents.ts";
import { resolveWorkspace } from "../../workspace.ts";

export interface AgentsOptions {
  cwd?: string;
  json?: boolean;
  agents?: string;
  /** `check`: fetch each remote agent's card. */
  online?: boolean;
}

/** `agentry agents list`: every agent a run can use, what it may do, and where it came from. */
export async function agentsListCommand(options: AgentsOptions, io: CliIo): Promise<number> {
  const { workspace, registry } = await registryFor(options, io);
  const agents = registry.list();
  if (options.json) {
    io.stdout.write(`${JSON.stringify(agents.map(summary))}\n`);
    return EXIT_CODES.completed;
  }
  let nameWidth = 4;
  for (const agent of agents) nameWidth = Math.max(nameWidth, agent.name.length);
  const lines = agents.map((agent) => {
    const facts = [
      agent.source.kind,
      agent.mode,
      ...(agent.url === undefined
        ? [agent.model ?? "parent's model", ...restrictions(effectiveAccess(agent), agent)]
        : [`remote (A2A) at ${agent.url}`]),
      ...(agent.source.path === undefined ? [] : [displayPath(agent.source.path, workspace)]),
    ];
    return `${agent.name.padEnd(nameWidth)}  ${firstLine(agent.description)}\n${" ".repeat(nameWidth + 2)}${facts.join(" · ")}`;
  });
  io.stdout.write(`${lines.join("\n")}\n`);
  const errors = registry.diagnostics.filter((d) => d.severity === "error").length;
  if (errors > 0) io.stderr.write(`${errors} agent file(s) were skipped; run \`agentry agents check\`.\n`);
  return EXIT_CODES.completed;
}

/** `agentry agents show <name>`: one agent's whole definition, what it may do, and its prompt. */
export async function agentsShowCommand(name: string, options: AgentsOptions, io: CliIo): Promise<number> {
  const { registry } = await registryFor(options, io);
  const agent = registry.get(name);
  if (!agent) {
    const known = registry
      .list()
      .map((a) => a.name)
      .join(", ");
    throw new UsageError(`No agent named "${name}". Known agents: ${known}. See: agentry agents list`);
  }
  const { rules: _rules, ...effective } = effectiveAccess(agent);
  const shown = agent.headers === undefined ? agent : { ...agent, headers: shownHeaders(agent.headers) };
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ ...shown, effective })}\n`);
    return EXIT_CODES.completed;
  }
  if (agent.url !== undefined) {
    const { prompt: _prompt, description, ...rest } = shown;
    io.stdout.write(
      `${fieldLines(rest).join("\n")}\nruns: on the remote A2A agent at ${agent.url} (its own model, tools and sandbox)\ndescription:\n${indent(description)}\n`,
    );
    return EXIT_CODES.completed;
  }
  const { prompt, description, ...rest } = agent;
  const fields = fieldLines(rest);
  const access = [
    `edits: ${editsOf(effective)}`,
    `sandbox: ${sandboxOf(effective)}`,
    `network: ${networkOf(agent)}`,
    `tools it gets: ${effective.tools === "inherited" ? "the parent's" : effective.tools.join(", ") || "none"}`,
    `tools it can never use: ${effective.deniedTools.join(", ") || "none"}`,
  ];
  io.stdout.write(
    `${fields.join("\n")}\n${access.join("\n")}\ndescription:\n${indent(description)}\nprompt:\n${indent(prompt)}\n`,
  );
  return EXIT_CODES.completed;
}

/**
 * `agentry agents check`: every diagnostic of every agent file; with `--online`, also whether each
 * remote agent's card can be fetched and read. Exits 1 when any is an error.
 */
export async function agentsCheckCommand(options: AgentsOptions, io: CliIo): Promise<number> {
  const { workspace, registry, project } = await registryFor(options, io);
  const withheld = project.withheld.filter((item) => item.setting.startsWith("agent "));
  const diagnostics = registry.diagnostics;
  const remote = registry.list().filter((agent) => agent.url !== undefined);
  const cards = options.online === true && remote.length > 0 ? await checkCards(remote, io.env) : [];
  const unreachable = cards.filter((card) => !card.ok).length;
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify({ agents: registry.list().length, diagnostics, withheld: withheld.map(({ value: _value, ...item }) => item), trusted: project.trust.trusted, ...(options.online ? { cards } : {}) })}\n`,
    );
  } else {
    io.stdout.write(`${formatDiagnostics(diagnostics, { cwd: workspace })}\n`);
    for (const item of withheld)
      io.stdout.write(
        `${item.source}: ${item.setting} ${item.kind === "never" ? `ignored: ${item.reason ?? ""}` : "withheld until you trust this folder (agentry trust)"}\n`,
      );
    for (const line of describePeerFiles(project.loaded.peers ?? [], project.withheld))
      io.stdout.write(`${line}\n`);
    const notice = withheld.length > 0 ? trustNotice(project) : undefined;
    if (notice !== undefined) io.stderr.write(`${notice}\n`);
    for (const card of cards)
      io.stdout.write(
        card.ok
          ? `${card.agent}: card read at ${card.url}: ${card.card}\n`
          : `${card.agent}: error: ${card.error}\n`,
      );
    io.stdout.write(`${registry.list().length} agents loaded.\n`);
    if (remote.length > 0 && options.online !== true)
      io.stdout.write(`${remote.length} remote agent(s) not contacted; add --online to fetch their cards.\n`);
  }
  return hasErrors(diagnostics) || unreachable > 0 ? EXIT_CODES.error : EXIT_CODES.completed;
}

/** The workspace's agents as a run would have them: read with the folder's trust, then `--agents`. */
async function registryFor(
  options: AgentsOptions,
  io: CliIo,
): Promise<{ workspace: string; registry: ReturnType<typeof registryOf>; project: ProjectView }> {
  const workspace = await resolveWorkspace(options.cwd, io.cwd);
  const project = await readProject({ workspace, env: io.env });
  return { workspace, registry: registryOf(project.agents, options.agents), project };
}

function summary(agent: AgentDefinition) {
  const access = effectiveAccess(agent);
  return {
    name: agent.name,
    description: agent.description,
    mode: agent.mode,
    model: agent.model ?? null,
    /** The tools it really gets; null = the parent's (minus `deniedTools`). */
    tools: access.tools === "inherited" ? null : access.tools,
    deniedTools: access.deniedTools,
    readOnly: access.readOnly,
    /** Where its edit and write tools may write: `{kind: "none" | "workspace"}` or `{kind: "only", patterns}`. */
    edits: access.edits,
    /** The OS sandbox of its commands, before the run's own rules (which may narrow it further). */
    sandbox: access.sandbox,
    /** Hosts its commands may reach among the run's; null = the run's. */
    allowedHosts: agent.allowedHosts ?? null,
    source: agent.source,
  };
}

/** What it may edit, the tools it gets and the ones it can never use, its sandbox, in a few words each. */
function restrictions(access: EffectiveAccess, agent: AgentDefinition): string[] {
  const tools =
    access.tools === "inherited" ? "inherits tools" : `tools: ${access.tools.join(", ") || "none"}`;
  const { edits } = access;
  return [
    ...(edits.kind === "none" ? ["read-only"] : []),
    ...(edits.kind === "only" ? [`edits only ${edits.patterns.join(", ")}`] : []),
    tools,
    ...(access.deniedTools.length > 0 ? [`denied: ${access.deniedTools.join(", ")}`] : []),
    `sandbox: ${sandboxLabel(access)}`,
    ...(agent.allowedHosts === undefined ? [] : [`network: ${networkOf(agent)}`]),
  ];
}

/**
 * The sandbox in `agents list`. An agent that edits some paths has a read-only sandbox too, but calling
 * it "read-only" there reads as "this agent cannot write": what the sandbox holds back is its commands.
 */
function sandboxLabel({ edits, sandbox }: Pick<EffectiveAccess, "edits" | "sandbox">): string {
  if (sandbox === "workspace-write") return "workspace-write";
  return edits.kind === "none" ? "read-only" : "commands write nothing";
}

/** `agents show`'s line on what its edit and write tools may write. */
function editsOf({ edits }: Pick<EffectiveAccess, "edits">): string {
  switch (edits.kind) {
    case "none":
      return "none (read-only: its rules deny every edit)";
    case "only":
      return `only ${edits.patterns.join(", ")} (its rules deny editing anything else)`;
    case "workspace":
      return "the workspace, but what its rules deny or ask for";
  }
}

/** `agents show`'s line on the OS sandbox of its commands. */
function sandboxOf({ edits, sandbox }: Pick<EffectiveAccess, "edits" | "sandbox">): string {
  if (sandbox === "workspace-write")
    return "workspace-write (its commands may write the workspace, not protected paths)";
  return edits.kind === "none"
    ? "read-only (its commands see the files read-only)"
    : "its commands write nothing (its edits go through the edit and write tools, path by path)";
}

/** The hosts an agent's commands may reach: its own narrowing of the run's, or the run's. */
function networkOf(agent: AgentDefinition): string {
  if (agent.allowedHosts === undefined) return "the run's (sandbox.network.allowedHosts; none by default)";
  return agent.allowedHosts.length === 0
    ? "none"
    : `${agent.allowedHosts.join(", ")} (if the run allows them)`;
}

function displayPath(path: string, workspace: string): string {
  const rel = relative(workspace, path);
  return rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

function fieldLines(fields: Record<string, unknown>): string[] {
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
}

/** Headers as they may be shown: `${VARIABLE}` references as written, literal values hidden. */
function shownHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      /\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(value) ? value : "(a literal value, not shown)",
    ]),
  );
}

type CardCheck =
  | { agent: string; url: string; ok: true; card: string }
  | { agent: string; url: string; ok: false; error: string };

/** Fetches every remote agent's card at once, each bounded by the client's timeout. */
async function checkCards(
  agents: readonly AgentDefinition[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<CardCheck[]> {
  const { a2aPlacement } = await import("../../../remote/client/index.ts");
  const { cardDescription } = await import("../../../remote/client/index.ts");
  const { describeRemoteFailure } = await import("../../../remote/remote-errors.ts");
  const client = a2aPlacement({ env, timeoutMs: CARD_TIMEOUT_MS });
  return Promise.all(
    agents.map(async (agent): Promise<CardCheck> => {
      const url = agent.url ?? "";
      try {
        const card = await client.agent(agent).card();
        return { agent: agent.name, url, ok: true, card: `${card.name} — ${cardDescription(card)}` };
      } catch (error) {
        return { agent: agent.name, url, ok: false, error: describeRemoteFailure(url, error) };
      }
    }),
  );
}

/** How long `agents check --online` waits for one card. */
const CARD_TIMEOUT_MS = 10_000;
