import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { AgentConfig } from "../../../src/agent/config.ts";
import { Session } from "../../../src/agent/session/session.ts";
import type { AgentEvent, AgentEventType, EventOf } from "../../../src/contracts/events.ts";
import type { Message, ToolResultPart } from "../../../src/model/messages.ts";
import { userText } from "../../../src/model/messages.ts";
import type { Model } from "../../../src/model/model.ts";
import { nodeOperations } from "../../../src/tools/node-operations.ts";
import { defineTool } from "../../../src/tools/tool.ts";
import { tempDir } from "../../support/temp-dir.ts";

/** A temp workspace (real path), removed when the current test finishes. */
export function tempWorkspace(): Promise<string> {
  return tempDir("agentry-agent-");
}

export function testConfig(
  workspace: string,
  model: Model,
  overrides: Partial<AgentConfig> = {},
): AgentConfig {
  return {
    name: "main",
    model,
    systemPrompt: "You are a test agent.",
    tools: [echoTool, sleepTool],
    workspace,
    ops: nodeOperations,
    ...overrides,
  };
}

/** A persisted session holding the user's prompt. */
export async function sessionWithPrompt(workspace: string, prompt = "hello"): Promise<Session> {
  const session = await Session.create({ workspace, agentName: "main", model: "scripted:model" });
  await session.append(userText(prompt));
  return session;
}

export function eventLog() {
  const events: AgentEvent[] = [];
  return {
    events,
    emit: (event: AgentEvent) => events.push(event),
    types: () => events.map((event) => event.type),
    of: <T extends AgentEventType>(type: T) => events.filter((e): e is EventOf<T> => e.type === type),
  };
}

/** The tool results of a request's messages, flattened. */
export function toolResultsIn(messages: readonly Message[]): ToolResultPart[] {
  return messages.flatMap((message) => (message.role === "tool_result" ? message.content : []));
}

export const echoTool = defineTool({
  name: "echo",
  description: "Returns its text.",
  schema: z.object({ text: z.string(), times: z.number().int().default(1) }),
  async execute(args) {
    return args.text.repeat(args.times);
  },
});

export const sleepTool = defineTool({
  name: "sleep",
  description: "Waits, honouring the abort signal.",
  schema: z.object({ ms: z.number() }),
  async execute(args, ctx) {
    await sleep(args.ms, undefined, { signal: ctx.signal });
    return `slept ${args.ms} ms`;
  },
});
