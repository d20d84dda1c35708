import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { firstUserText, tempWorkspace } from "../subagents/support/subagent-harness.ts";
import { runWorkflow, workflowOptions } from "./support/workflow-harness.ts";

const HEADER = `export const meta = { name: "shapes", description: "structured output" };
const shape = { type: "object", properties: { count: { type: "integer" } }, required: ["count"] };
`;

/** The last user message's text: the corrective turn's message, on a child's second request. */
function lastUserText(request: ModelRequest): string {
  const users = request.messages.filter((message) => message.role === "user");
  const last = users.at(-1);
  return last?.content.map((part) => (part.type === "text" ? part.text : "")).join("") ?? "";
}

test("a reply that is not valid gets one corrective turn in the same child, and its second reply counts", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request) =>
    request.messages.length === 1
      ? { text: "Sure! The count is 3." }
      : { text: '```json\n{"count": 3}\n```' },
  );
  const { events, options } = workflowOptions(workspace, model);
  const outcome = await runWorkflow({
    ...options,
    script: `${HEADER}return await agent("Count it", { schema: shape });`,
  });

  expect(outcome).toMatchObject({ status: "completed", result: { count: 3 } });
  expect(model.requests).toHaveLength(2);
  // The child's own schema instructions, then the correction naming what was wrong, in one conversation.
  expect(firstUserText(model.requests[0]!.messages)).toContain('"required"');
  expect(lastUserText(model.requests[1]!)).toMatch(/not what was asked for: it is not JSON/);
  expect(events.filter((e) => e.type === "workflow_agent" && e.status === "corrected")).toHaveLength(1);
});

test("a child that stays malformed fails the call with the validation error after one corrective turn", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel(() => ({ text: '{"count": "three"}' }));
  const { options } = workflowOptions(workspace, model);
  const outcome = await runWorkflow({
    ...options,
    script: `${HEADER}return await agent("Count it", { schema: shape });`,
  });

  expect(outcome.status).toBe("failed");
  expect(outcome.error).toMatch(
    /returned no valid output after one corrective turn: it does not match the schema: count:/,
  );
  expect(model.requests).toHaveLength(2);
  expect(outcome.agents).toEqual({ run: 1, replayed: 0, failed: 1 });
});

test("parallel reports each failed item and keeps the others' results", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request) =>
    firstUserText(request.messages).startsWith("Count b") ? { text: "no idea" } : { text: '{"count": 1}' },
  );
  const { options } = workflowOptions(workspace, model);
  const outcome = await runWorkflow({
    ...options,
    script: `${HEADER}return await parallel(["a", "b", "c"].map((x) => () => agent("Count " + x, { label: x, schema: shape })));`,
  });

  expect(outcome.status).toBe("completed");
  expect(outcome.result).toEqual([{ count: 1 }, null, { count: 1 }]);
  expect(outcome.failures).toEqual([
    {
      where: "parallel item 1",
      error: expect.stringMatching(/agent "b" .* no valid output after one corrective turn/),
    },
  ]);
  expect(outcome.agents).toEqual({ run: 3, replayed: 0, failed: 1 });
});

test("a schema that is not a JSON Schema fails the call before any model request", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel(() => ({ text: "{}" }));
  const { options } = workflowOptions(workspace, model);
  const outcome = await runWorkflow({
    ...options,
    script: `export const meta = { name: "bad" };\nreturn await agent("x", { schema: { type: "no-such-type" } });`,
  });
  expect(outcome.status).toBe("failed");
  expect(outcome.error).toMatch(/schema is not a JSON Schema agentry can check/);
  expect(model.requests).toHaveLength(0);
});
