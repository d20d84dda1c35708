import { PushModelStream } from "../../src/model/event-stream.ts";
import type { AssistantMessage, ToolCallPart } from "../../src/model/messages.ts";
import type { Model, ModelRequest, ModelStream } from "../../src/model/model.ts";

/** What an instant model answers: text, tool calls, or both. */
export interface InstantReply {
  text?: string;
  toolCalls?: Array<{ name: string; args: unknown }>;
}

const MODEL_ID = "bench:instant";

/**
 * A model at the normalized contract with nothing of its own to measure: no copy of the request (the
 * scripted model in `agentry-ai/testing` clones every request for its `requests` log, which would count
 * as harness time and memory), no delays, no chunking. A reply given as a promise is awaited (e.g. a
 * gate); the signal aborts the wait.
 */
export function instantModel(reply: (request: ModelRequest) => InstantReply | Promise<InstantReply>): Model {
  let calls = 0;
  return {
    id: MODEL_ID,
    stream(request: ModelRequest, signal?: AbortSignal): ModelStream {
      const stream = new PushModelStream();
      const answer = reply(request);
      if (answer instanceof Promise) {
        const aborted = () => stream.end(failure("aborted"));
        signal?.addEventListener("abort", aborted, { once: true });
        answer.then(
          (value) => {
            signal?.removeEventListener("abort", aborted);
            if (!signal?.aborted) play(stream, value, () => ++calls);
          },
          (error: unknown) => stream.end(failure("error", String(error))),
        );
      } else {
        play(stream, answer, () => ++calls);
      }
      return stream;
    },
  };
}

function play(stream: PushModelStream, answer: InstantReply, nextId: () => number): void {
  const usage = { input: 10, output: 10, cacheRead: 0, cacheWrite: 0 };
  const content: AssistantMessage["content"] = [];
  if (answer.text) {
    stream.push({ type: "text_delta", delta: answer.text });
    content.push({ type: "text", text: answer.text });
  }
  for (const call of answer.toolCalls ?? []) {
    const id = `call_${nextId()}`;
    const rawArgs = JSON.stringify(call.args);
    stream.push({ type: "tool_call_start", id, name: call.name });
    stream.push({ type: "tool_call_end", id, name: call.name, rawArgs });
    content.push({ type: "tool_call", id, name: call.name, args: call.args, rawArgs } satisfies ToolCallPart);
  }
  stream.push({ type: "usage", usage });
  stream.end({
    role: "assistant",
    content,
    stopReason: answer.toolCalls?.length ? "tool_calls" : "stop",
    usage,
    model: MODEL_ID,
  });
}

function failure(stopReason: "error" | "aborted", errorMessage: string = stopReason): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    stopReason,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    model: MODEL_ID,
    errorMessage,
  };
}
