import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { Session } from "../../src/agent/session/session.ts";
import { builtinAgents } from "../../src/agents/builtin-agents.ts";
import type { Model } from "../../src/model/model.ts";
import { type A2aServer, serveA2a } from "../../src/remote/serve/a2a-http-server.ts";
import type { ServedAgents } from "../../src/remote/serve/served-agents.ts";
import { ServedRecords } from "../../src/remote/serve/served-records.ts";
import { inProcessExecutor } from "../../src/subagents/run/in-process-executor.ts";
import { currentOwner } from "../../src/tasks/owner.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import type { AnyTool } from "../../src/tools/tool.ts";
import { testLocalChild } from "./local-child.ts";
import { tempDir } from "./temp-dir.ts";

export const SERVE_TOKEN = "test-token-0123456789";

/**
 * `agentry serve`'s server with built-in agents (default: `explore` alone), whose every conversation
 * runs on `model` (a scripted model) with no tools: the A2A side of agentry without the CLI's wiring.
 */
export async function serveScripted(
  model: Model,
  options: {
    record?: boolean;
    log?: (line: string) => void;
    tools?: AnyTool[];
    maxConcurrent?: number;
    /** Built-in agents to serve (default: explore). */
    agents?: string[];
    defaultAgent?: string;
    publicCards?: boolean;
    /** Conversations in sessions persisted in the workspace, which a context taken up again resumes. */
    persist?: boolean;
    /** The workspace to serve (default: a new one), e.g. the one of a server this one replaces. */
    workspace?: string;
    /** The records' owner (default: this process, as agentry serve writes them). */
    owner?: string;
    openConversations?: number;
    keptTasks?: number;
  } = {},
): Promise<A2aServer & { workspace: string; opened: Array<{ contextId: string; resume?: string }> }> {
  const workspace = options.workspace ?? (await tempDir("agentry-serve-"));
  const opened: Array<{ contextId: string; resume?: string }> = [];
  const served = builtinAgents().filter((agent) => (options.agents ?? ["explore"]).includes(agent.name));
  let conversations = 0;
  const agents: ServedAgents = {
    agents: served.map((definition) => ({ name: definition.name, description: definition.description })),
    async open(name, { contextId, resume }) {
      opened.push({ contextId, ...(resume === undefined ? {} : { resume }) });
      const agentPath = ["a2a", `${name}-${++conversations}`];
      const session =
        options.persist !== true
          ? undefined
          : resume === undefined
            ? await Session.create({ workspace, agentName: name, model: model.id })
            : await Session.resume(workspace, resume);
      const child = await testLocalChild(model, workspace, {
        agent: name,
        agentPath,
        taskId: contextId,
        ...(session === undefined ? {} : { session }),
        ...(options.tools === undefined ? {} : { tools: options.tools }),
      });
      const executor = inProcessExecutor(child, (message) => {
        throw new Error(`unexpected warning: ${message}`);
      });
      return { executor, agentPath, sessionId: child.session.id, model: model.id };
    },
  };
  const server = await serveA2a({
    agents,
    host: "127.0.0.1",
    port: 0,
    token: SERVE_TOKEN,
    version: "test",
    log: options.log ?? (() => {}),
    ...(options.maxConcurrent === undefined ? {} : { maxConcurrent: options.maxConcurrent }),
    ...(options.defaultAgent === undefined ? {} : { defaultAgent: options.defaultAgent }),
    ...(options.publicCards === undefined ? {} : { publicCards: options.publicCards }),
    ...(options.openConversations === undefined ? {} : { openConversations: options.openConversations }),
    ...(options.keptTasks === undefined ? {} : { keptTasks: options.keptTasks }),
    ...(options.record === true
      ? { records: new ServedRecords(taskStore(workspace), options.owner ?? currentOwner()) }
      : {}),
  });
  return { ...server, workspace, opened };
}

/** The task store of a served workspace, as `agentry tasks list` there reads it. */
export function taskStore(workspace: string): WorkspaceTaskStore {
  return new WorkspaceTaskStore({ workspace });
}

/**
 * The official SDK's client factory, sending `Authorization: Bearer <token>` with every request, the
 * card's included (its default card resolver sends none): as docs/a2a.md tells a client to.
 */
export function sdkClientFactory(token: string | undefined): ClientFactory {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
    }),
  );
}
