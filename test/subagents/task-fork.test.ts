import { afterEach, expect, test } from "vitest";
import type { Message } from "../../src/model/messages.ts";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import {
  registryWith,
  rootTree,
  runTree,
  serverModel,
  tempWorkspace,
  toolResultsIn,
  wireMessages,
  wireTexts,
} from "./support/subagent-harness.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };
const assistant = (content: Extract<Message, { role: "assistant" }>["content"]): Message => ({
  role: "assistant",
  content,
  stopReason: content.some((part) => part.type === "tool_call") ? "tool_calls" : "stop",
  usage,
  model: "scripted:model",
});
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

/** The parent's conversation before this turn: a tool-using turn, then a plain one. */
const HISTORY: Message[] = [
  user("Where is the parser?"),
  assistant([
    { type: "reasoning", text: "I should grep.", signature: "sig" },
    { type: "text", text: "Let me look." },
    {
      type: "tool_call",
      id: "call_1",
      name: "grep",
      args: { pattern: "parse" },
      rawArgs: '{"pattern":"parse"}',
    },
  ]),
  {
    role: "tool_result",
    content: [
      {
        type: "tool_result",
        toolCallId: "call_1",
        toolName: "grep",
        content: "src/parser.ts:1",
        isError: false,
      },
    ],
  },
  assistant([{ type: "text", text: "It is in src/parser.ts." }]),
  user("And the tests?"),
  assistant([
    { type: "reasoning", text: "Known already." },
    { type: "text", text: "In test/parser.test.ts." },
  ]),
];

test("fork all and fork 2 start children with exactly the sanitized history, then their prompt", async () => {
  const workspace = await tempWorkspace();
  server = await startModelServer({ text: "child ok" });
  const childModel = serverModel(server, "anthropic:claude-haiku-4-5");
  const registry = registryWith({
    name: "recent",
    description: "Sees the last two turns.",
    prompt: "You see recent turns.",
    fork: 2,
    model: "anthropic:claude-haiku-4-5",
  });
  const parent = scriptedModel(
    (request: ModelRequest): ScriptedReply =>
      toolResultsIn(request.messages.slice(HISTORY.length)).length === 0
        ? {
            toolCalls: [
              {
                name: "task",
                args: {
                  description: "All of it",
                  prompt: "PROMPT ALL",
                  fork: "all",
                  model: "anthropic:claude-haiku-4-5",
                },
              },
              {
                name: "task",
                args: { description: "Recent", prompt: "PROMPT RECENT", subagent_type: "recent" },
              },
              {
                name: "task",
                args: { description: "Fresh", prompt: "PROMPT NONE", subagent_type: "recent", fork: "none" },
              },
            ],
          }
        : { text: "done" },
  );
  const { config } = rootTree({ workspace, model: parent, registry, createModel: () => childModel });

  const run = await runTree(config, "Now delegate.", { history: HISTORY });
  expect(run.outcome.status).toBe("completed");
  const conversation = (prompt: string) => {
    const request = server!.requests.find((r) => JSON.stringify(r.body.messages).includes(prompt));
    const messages = wireMessages(request!.body);
    // Only text: no reasoning, tool calls or tool results survive a fork.
    for (const message of messages)
      if (Array.isArray(message.content))
        for (const block of message.content) expect(block.type).toBe("text");
    return messages.map((message) => [message.role, wireTexts(message)]);
  };
  expect(conversation("PROMPT ALL")).toEqual([
    ["user", ["Where is the parser?"]],
    ["assistant", ["It is in src/parser.ts."]],
    ["user", ["And the tests?"]],
    ["assistant", ["In test/parser.test.ts."]],
    ["user", ["Now delegate.", "PROMPT ALL"]],
  ]);
  expect(conversation("PROMPT RECENT")).toEqual([
    ["user", ["And the tests?"]],
    ["assistant", ["In test/parser.test.ts."]],
    ["user", ["Now delegate.", "PROMPT RECENT"]],
  ]);
  expect(conversation("PROMPT NONE")).toEqual([["user", ["PROMPT NONE"]]]);
});

test("a bad fork value is refused with a clear message", async () => {
  const workspace = await tempWorkspace();
  const parent = scriptedModel(
    (request: ModelRequest): ScriptedReply =>
      toolResultsIn(request.messages).length === 0
        ? { toolCalls: [{ name: "task", args: { description: "Bad", prompt: "x", fork: "some" } }] }
        : { text: "done" },
  );
  const { config, runtime } = rootTree({ workspace, model: parent });

  const run = await runTree(config, "ROOT");
  const [result] = toolResultsIn(run.session.messages);
  expect(result?.isError).toBe(true);
  expect(result?.content).toMatch(/^Invalid arguments for "task":\n- fork/);
  expect(result?.content).toContain("fork");
  expect(runtime.started).toBe(0);
});
