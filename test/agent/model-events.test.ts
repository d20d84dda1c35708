import { expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { PushModelStream } from "../../src/model/event-stream.ts";
import { emptyUsage } from "../../src/model/messages.ts";
import type { Model, ModelStream } from "../../src/model/model.ts";
import { eventLog, sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

it("forwards reasoning, text and retry events from the model stream", async () => {
  const workspace = await tempWorkspace();
  const model: Model = {
    id: "test:retrying",
    stream() {
      const stream = new PushModelStream();
      stream.push({ type: "retry", attempt: 1, delayMs: 500, error: "429 rate limited" });
      stream.push({ type: "reasoning_delta", delta: "thinking" });
      stream.push({ type: "text_delta", delta: "answer" });
      stream.end({
        role: "assistant",
        content: [{ type: "text", text: "answer" }],
        stopReason: "stop",
        usage: emptyUsage(),
        model: "test:retrying",
      });
      return stream;
    },
  };
  const log = eventLog();
  await runAgentLoop(testConfig(workspace, model), await sessionWithPrompt(workspace), log.emit);
  expect(log.types().slice(1, 7)).toEqual([
    "turn_start",
    "usage_estimate",
    "retry",
    "reasoning_delta",
    "text_delta",
    "assistant_message",
  ]);
  expect(log.of("retry")[0]).toEqual({
    type: "retry",
    attempt: 1,
    delayMs: 500,
    error: "429 rate limited",
    agentPath: ["main"],
  });
});

it("turns a stream that breaks its never-throw contract into an error outcome", async () => {
  const workspace = await tempWorkspace();
  const broken: Model = {
    id: "test:broken",
    stream(): ModelStream {
      return {
        result: () => Promise.reject(new Error("socket hang up")),
        // biome-ignore lint/correctness/useYield: the point is that it throws before yielding
        async *[Symbol.asyncIterator]() {
          throw new Error("socket hang up");
        },
      };
    },
  };
  const outcome = await runAgentLoop(
    testConfig(workspace, broken),
    await sessionWithPrompt(workspace),
    () => {},
  );
  expect(outcome).toMatchObject({ status: "error", error: "socket hang up" });
});
