import type { PermissionMode } from "../../../permissions/gate.ts";
import { serveA2a } from "../../../remote/serve/a2a-http-server.ts";
import { ServedRecords } from "../../../remote/serve/served-records.ts";
import { parseTraceParent } from "../../../telemetry/trace-context.ts";
import { errorMessage } from "../../../text/error-message.ts";
import { UsageError } from "../../errors.ts";
import { stopSignal } from "../../interrupts.ts";
import type { CliIo } from "../../io.ts";
import { listenerToken, SERVE_TOKEN_ENV } from "../../serve-token.ts";
import { loadRunSettings, selectSessionAndModel, wireRoot } from "../../wire/prepare-run.ts";
import { rootWiring } from "../../wire/start-root.ts";
import { wireTracingSession } from "../../wire/wire-tracing.ts";
import { servedLocalAgents } from "./served-local-agents.ts";

export interface ServeOptions {
  /** `--trust-project`: the project's widening settings apply for this run. */
  trustProject?: boolean;
  host: string;
  port: number;
  cwd?: string;
  model?: string;
  permissionMode?: PermissionMode;
  /** `--agent`: the agent whose card is at the root (default general-purpose). */
  agent?: string;
  /** `--public-cards`: the cards answer without the token (the calls still need it). */
  publicCards?: boolean;
}

/**
 * `agentry serve`: the workspace's agents over A2A until SIGINT or SIGTERM, then every running task
 * is cancelled, its record finished, and the exit code is 0. The token is settled before anything
 * starts, so a refused address fails at once.
 */
export async function serveCommand(options: ServeOptions, io: CliIo, version: string): Promise<number> {
  const { token, generated } = listenerToken(options.host, io.env, "serve");
  const loaded = await loadRunSettings(options, io);
  const { workspace, settings, limiters } = loaded;
  const { model } = await selectSessionAndModel(workspace, settings, io, undefined, limiters);
  const wired = await wireRoot(rootWiring(loaded, model, io));
  const { createModel } = await import("../../../model/registry.ts");
  const log = (line: string) => io.stderr.write(`agentry serve: ${line}\n`);
  const tracing = await wireTracingSession(io.env, settings.telemetry);
  try {
    const agents = servedLocalAgents({
      root: wired.config,
      runtime: wired.runtime,
      createModel: (id) => createModel(id, settings.providers, io.env, { limiters }),
      warn: (message) => log(`warning: ${message}`),
    });
    if (agents.agents.length === 0)
      throw new UsageError("no agent to serve: the permission rules deny task for every local agent.");
    const names = agents.agents.map((agent) => agent.name);
    if (options.agent !== undefined && !names.includes(options.agent))
      throw new UsageError(
        `--agent ${options.agent}: no such agent is served (served: ${names.join(", ")}).`,
      );
    const server = await serveA2a({
      agents,
      host: options.host,
      port: options.port,
      token,
      version,
      ...(options.agent === undefined ? {} : { defaultAgent: options.agent }),
      publicCards: options.publicCards === true,
      maxConcurrent: wired.runtime.limits.maxConcurrent,
      records: new ServedRecords(wired.runtime.store, wired.runtime.owner, {
        orphanTimeoutMs: wired.runtime.limits.orphanTimeoutMs,
      }),
      log,
      ...(tracing === undefined ? {} : { trace: (parent) => tracing.tracer(parseTraceParent(parent)) }),
    }).catch((error: unknown) => {
      throw new UsageError(`cannot listen on ${options.host}:${options.port}: ${errorMessage(error)}`);
    });
    log(`serving ${agents.agents.length} agents at ${server.url}/agents/<name>/ (workspace ${workspace})`);
    log(`the card at ${server.url}/.well-known/agent-card.json is ${server.defaultAgent}'s`);
    for (const agent of agents.agents) io.stdout.write(`${agent.name}\t${server.agentUrl(agent.name)}\n`);
    if (generated) log(`token (generated for this start; set ${SERVE_TOKEN_ENV} to choose one): ${token}`);
    const signal = await stopSignal();
    log(`stopping (${signal}): cancelling running tasks`);
    await server.close();
    return 0;
  } finally {
    await wired.close("agentry serve stopped");
    const sent = await tracing?.close();
    if (sent !== undefined && sent !== "sent") log("warning: the last traces could not be sent");
  }
}
