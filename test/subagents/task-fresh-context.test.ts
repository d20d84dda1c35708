import { afterEach, expect, test } from "vitest";
import type { AssistantMessage } from "../../src/model/messages.ts";
import { userText } from "../../src/model/messages.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import {
  CHILD_MARK,
  ROOT_PROMPT,
  registryWith,
  rootTree,
  runTree,
  serverModel,
  tempWorkspace,
  wireMessages,
  wireSystem,
  wireTexts,
  wireToolNames,
  withoutCacheControl,
} from "./support/subagent-harness.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SECRET = "PARENT-ONLY-CONTEXT-7f3a";
const CHILD_PROMPT = "Find which test runner this repository uses and return its name only.";
const history = [
  userText(`Earlier question mentioning ${SECRET}.`),
  {
    role: "assistant",
    content: [{ type: "text", text: `Earlier answer about ${SECRET}.` }],
    stopReason: "stop",
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
    model: "anthropic:claude-sonnet-4-5",
  } satisfies AssistantMessage,
];

const isChild = (request: RecordedRequest) => wireSystem(request.body).includes(CHILD_MARK);

test("a child's first request holds only its system prompt and its prompt; the parent grows only by the wrapped result", async () => {
  const workspace = await tempWorkspace();
  let rootCalls = 0;
  server = await startModelServer((request) => {
    if (isChild(request)) return { text: "The tests use vitest." };
    rootCalls++;
    return rootCalls === 1
      ? {
          toolCalls: [
            {
              id: "toolu_task1",
              name: "task",
              args: { description: "Find test runner", prompt: CHILD_PROMPT },
            },
          ],
        }
      : { text: "This project uses vitest." };
  });
  const { config } = rootTree({ workspace, model: serverModel(server), registry: registryWith() });
  expect(config.tools.map((tool) => tool.name)).toContain("task");

  const run = await runTree(config, "Which test runner do we use?", { history });
  expect(run.outcome).toMatchObject({ status: "completed", text: "This project uses vitest." });

  const children = server.requests.filter(isChild);
  const roots = server.requests.filter((request) => !isChild(request));
  expect(children).toHaveLength(1);
  expect(roots).toHaveLength(2);
  const child = children[0]!;

  // Only its prompt: one user message, none of the parent's messages.
  const childMessages = wireMessages(child.body);
  expect(childMessages).toHaveLength(1);
  expect(childMessages[0]?.role).toBe("user");
  expect(wireTexts(childMessages[0]!)).toEqual([CHILD_PROMPT]);
  expect(child.rawBody).not.toContain(SECRET);

  // Its own system prompt: the definition's prompt plus the preamble, not the parent's.
  const generalPurpose = registryWith().get("general-purpose")!;
  const system = wireSystem(child.body);
  expect(system.startsWith(generalPurpose.prompt.trim())).toBe(true);
  expect(system).toContain(CHILD_MARK);
  expect(system).toContain("cannot ask the user");
  expect(system).not.toContain(ROOT_PROMPT);

  // At the default depth a child gets no spawn tools, even though it inherits the parent's tools.
  expect(wireToolNames(child.body)).toEqual(["bash", "read", "write", "edit", "grep", "glob", "list"]);
  expect(wireToolNames(roots[0]!.body)).toContain("task");

  // The parent's next request = the previous one + its task call + the wrapped result, nothing else.
  const before = withoutCacheControl(wireMessages(roots[0]!.body));
  const after = withoutCacheControl(wireMessages(roots[1]!.body));
  expect(after.slice(0, before.length)).toEqual(before);
  const added = after.slice(before.length);
  expect(added.map((message) => message.role)).toEqual(["assistant", "user"]);
  const results = (added[1]!.content as Array<Record<string, unknown>>).filter(
    (block) => block.type === "tool_result",
  );
  expect(results).toHaveLength(1);
  expect(added[1]!.content).toHaveLength(1);
  const [wrapped] = wireTexts(added[1]!);
  expect(wrapped).toMatch(
    /^<task_result task_id="sub-[a-z0-9-]+" agent="general-purpose" status="completed">\nThe tests use vitest\.\n<\/task_result>\nturns: 1 · tokens: \d+ in \/ \d+ out · [\d.]+(ms|s) · model: anthropic:claude-sonnet-4-5$/,
  );
});
