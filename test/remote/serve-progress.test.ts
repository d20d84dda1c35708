import { afterEach, expect, it } from "vitest";
import { z } from "zod";
import type { AgentEvent } from "../../src/contracts/events.ts";
import type { A2aServer } from "../../src/remote/serve/a2a-http-server.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { remoteExecutor } from "../support/a2a-client.ts";
import { SERVE_TOKEN, serveScripted } from "../support/a2a-serve.ts";

/**
 * What a served agent does reaches the agentry client as its own events: turns, tool calls and the
 * usage the served side counted, under the remote child's path, so the live tree, stream-json and
 * the run's token budget see remote work as they see local work.
 */
const servers: A2aServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const noteTool = defineTool({
  name: "note",
  description: "Records a note.",
  schema: z.object({ text: z.string() }),
  execute: async (args) => `noted: ${args.text}`,
});

it("a served agent's turns and tool calls are the remote child's events, with its usage", async () => {
  const model = scriptedModel([
    { toolCalls: [{ name: "note", args: { text: "one" } }], usage: { input: 100, output: 5 } },
    { text: "noted it", usage: { input: 120, output: 7 } },
  ]);
  const server = await serveScripted(model, { tools: [noteTool] });
  servers.push(server);
  const events: AgentEvent[] = [];
  const { outcome } = await remoteExecutor(server.agentUrl("explore"), {
    headers: { Authorization: `Bearer ${SERVE_TOKEN}` },
  }).start({
    prompt: "Note one.",
    messages: [],
    signal: new AbortController().signal,
    emit: (e) => events.push(e),
  }).done;

  expect(outcome).toMatchObject({ status: "completed", text: "noted it", turns: 2 });
  expect(outcome.usage).toMatchObject({ input: 220, output: 12 });
  const path = ["main", "far-1"];
  expect(events.map((event) => event.type)).toEqual([
    "agent_start",
    "turn_start",
    "tool_start",
    "tool_end",
    "turn_end",
    "turn_start",
    "turn_end",
    "agent_end",
  ]);
  for (const event of events) expect(event.agentPath).toEqual(path);
  expect(events.find((event) => event.type === "tool_end")).toMatchObject({ name: "note", isError: false });
});
