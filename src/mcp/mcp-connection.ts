import { stat } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  Client,
  type ElicitResult,
  type Tool as McpToolInfo,
  type Prompt,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { DEFAULT_INHERITED_ENV_VARS } from "@modelcontextprotocol/client/stdio";
import { AgentryError } from "../errors/agentry-error.ts";
import { inArrivalOrder } from "./arrival-order.ts";
import type { McpClientFeatures } from "./client-features.ts";
import { elicitationFields, NO_ONE_TO_ASK } from "./elicitation.ts";
import { describeConnectFailure, describeError, describeExit, stderrNote } from "./failure-messages.ts";
import { sample } from "./sampling.ts";
import type { McpServerConfig } from "./server-config.ts";
import { StdioProcessTransport } from "./stdio-process-transport.ts";

/** One connected server. */
export interface McpConnection {
  readonly server: string;
  readonly client: Client;
  /** Why the server can no longer be used ("it exited with code 1 …"), or undefined while it can. */
  gone(): string | undefined;
  /** An error of a call to this server, described for the model. */
  describe(error: unknown): string;
  /** Ends the connection (and a stdio server's process). Idempotent. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** The workspace: a stdio server's default cwd, and what a relative `cwd` is relative to. */
  cwd: string;
  /** Where the inherited variables of a stdio server's environment come from. */
  env: Record<string, string | undefined>;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  clientVersion: string;
  /** Elicitation and sampling; roots (the workspace, `cwd`) are always answered. */
  features?: McpClientFeatures;
  /** The server's tool list after a `notifications/tools/list_changed`. */
  onToolsChanged?: (tools: McpToolInfo[]) => void;
}

/** What connecting learnt about a server. */
export interface ConnectedServer {
  connection: McpConnection;
  tools: McpToolInfo[];
  instructions: string | undefined;
  /** Its prompts (empty when it offers none, or listing them failed). */
  prompts: Prompt[];
  /** Whether it offers resources (`list_mcp_resources` then lists them). */
  resources: boolean;
}

/** A connection attempt that failed; the message says why and what to do. */
export class McpConnectError extends AgentryError {
  override readonly name = "McpConnectError";
  readonly kind = "system";
}

/**
 * Connects to one server and lists its tools, within `timeoutMs` (and until `signal`). Throws
 * `McpConnectError`, after ending the server's process, when it cannot.
 */
export async function connectMcpServer(
  server: string,
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<ConnectedServer> {
  const transport = inArrivalOrder(await createTransport(config, options));
  const client = createClient(server, options);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const signal =
    options.signal === undefined ? deadline.signal : AbortSignal.any([deadline.signal, options.signal]);
  try {
    const requestOptions = { signal, timeout: options.timeoutMs };
    await untilAborted(client.connect(transport, requestOptions), signal);
    const { tools } = await untilAborted(client.listTools(undefined, requestOptions), signal);
    const capabilities = client.getServerCapabilities();
    // A server whose prompts cannot be listed still has its tools.
    const prompts =
      capabilities?.prompts === undefined
        ? []
        : await untilAborted(client.listPrompts(undefined, requestOptions), signal).then(
            (listed) => listed.prompts,
            () => [],
          );
    return {
      connection: connection(server, config, client, transport),
      tools,
      instructions: client.getInstructions(),
      prompts,
      resources: capabilities?.resources !== undefined,
    };
  } catch (error) {
    clearTimeout(timer);
    const timedOut = deadline.signal.aborted;
    const cancelled = !timedOut && options.signal?.aborted === true;
    const stdio = transport instanceof StdioProcessTransport ? transport : undefined;
    await stdio?.kill();
    await client.close().catch(() => {});
    throw new McpConnectError(
      describeConnectFailure(error, {
        config,
        ...(timedOut ? { timeoutMs: options.timeoutMs } : {}),
        cancelled,
        exit: stdio?.exit,
        stderr: stdio?.stderr.lines() ?? [],
      }),
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The client of one server, declaring what agentry answers: roots (the workspace), elicitation in form
 * mode (a person through `features.elicit`, else declined: servers hide the tools that need it from a
 * client without it), and sampling when the run gives a model for it.
 */
function createClient(server: string, options: ConnectOptions): Client {
  const features = options.features ?? {};
  const client = new Client(
    { name: "agentry", version: options.clientVersion },
    {
      capabilities: {
        roots: { listChanged: false },
        elicitation: { form: {} },
        ...(features.sampling === undefined ? {} : { sampling: {} }),
      },
      ...(options.onToolsChanged === undefined
        ? {}
        : {
            listChanged: {
              tools: {
                onChanged: (error, tools) => {
                  if (error === null && tools !== null) options.onToolsChanged?.(tools);
                },
              },
            },
          }),
    },
  );
  // Out-of-band noise (a log line on stdout, a failed SSE reconnect) must not reach our output.
  client.onerror = () => {};
  const root = { uri: pathToFileURL(options.cwd).href, name: basename(options.cwd) };
  client.setRequestHandler("roots/list", async () => ({ roots: [root] }));
  client.setRequestHandler("elicitation/create", async (request, ctx): Promise<ElicitResult> => {
    const params = request.params;
    if (params.mode === "url" || features.elicit === undefined) return NO_ONE_TO_ASK;
    const fields = elicitationFields(params.requestedSchema);
    if (fields === undefined) return NO_ONE_TO_ASK;
    return features.elicit({ server, message: params.message, fields }, ctx.mcpReq.signal);
  });
  const sampling = features.sampling;
  if (sampling !== undefined) {
    client.setRequestHandler("sampling/createMessage", (request, ctx) =>
      sample(server, request.params, sampling, ctx.mcpReq.signal),
    );
  }
  return client;
}

async function createTransport(
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<StdioProcessTransport | StreamableHTTPClientTransport> {
  if (config.type === "http") {
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: config.headers ?? {} },
    });
  }
  const cwd = resolve(options.cwd, config.cwd ?? ".");
  const isDirectory = await stat(cwd).then(
    (entry) => entry.isDirectory(),
    () => false,
  );
  if (!isDirectory) throw new McpConnectError(`its working directory ${cwd} does not exist. Fix "cwd".`);
  return new StdioProcessTransport({
    command: config.command,
    args: config.args ?? [],
    cwd,
    env: { ...inheritedEnvironment(options.env), ...config.env },
  });
}

/** The variables a stdio server inherits (the SDK's list: HOME, LOGNAME, PATH, SHELL, TERM, USER). */
export function inheritedEnvironment(env: Record<string, string | undefined>): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const name of DEFAULT_INHERITED_ENV_VARS) {
    const value = env[name];
    // Exported bash functions (`() { …`) are code, not configuration.
    if (value !== undefined && !value.startsWith("()")) inherited[name] = value;
  }
  return inherited;
}

function connection(
  server: string,
  config: McpServerConfig,
  client: Client,
  transport: StdioProcessTransport | StreamableHTTPClientTransport,
): McpConnection {
  let closing: Promise<void> | undefined;
  return {
    server,
    client,
    gone() {
      if (closing !== undefined) return "its connection was closed at the end of the run";
      if (transport instanceof StdioProcessTransport && transport.exit !== undefined) {
        return `it ${describeExit(transport.exit)}${stderrNote(transport.stderr.lines().slice(-5))}`;
      }
      return undefined;
    },
    describe: (error) => describeError(error, config),
    close() {
      closing ??= endSession(transport).then(() => client.close().catch(() => {}));
      return closing;
    },
  };
}

/** Asks an HTTP server to drop our session (MCP's DELETE), as the spec suggests; a second at most. */
async function endSession(transport: StdioProcessTransport | StreamableHTTPClientTransport): Promise<void> {
  if (!(transport instanceof StreamableHTTPClientTransport)) return;
  const timeout = new Promise<void>((resolveTimeout) => setTimeout(resolveTimeout, 1_000).unref());
  await Promise.race([transport.terminateSession().catch(() => {}), timeout]);
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolvePromise, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolvePromise(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
